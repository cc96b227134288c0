// What the Stripe fake (stripe-fake.ts) keeps, and the operations of its API on it: customers,
// SetupIntents, PaymentIntents and their charges, refunds, search and list. The HTTP side (routes,
// idempotency, faults) and the dashboard actions are in stripe-fake.ts, which extends this.
import { randomBytes } from "node:crypto";
import type Stripe from "stripe";
import {
  CANCELLATION_REASONS,
  declined,
  FAKE_CARDS,
  id,
  missing,
  newIntent,
  now,
  paymentMethod,
  unexpectedState,
} from "./stripe-fake-objects.ts";

export class StripeStore {
  readonly customers = new Map<string, Stripe.Customer>();
  readonly deletedCustomers = new Set<string>();
  readonly setupIntents = new Map<string, Stripe.SetupIntent>();
  readonly paymentIntents = new Map<string, Stripe.PaymentIntent>();
  readonly charges = new Map<string, Stripe.Charge>();
  readonly refunds = new Map<string, Stripe.Refund>();
  readonly disputes = new Map<string, Stripe.Dispute>();

  protected createCustomer(p: Record<string, unknown>): Stripe.Customer {
    const customer: Stripe.Customer = {
      id: id("cus"),
      object: "customer",
      balance: 0,
      created: now(),
      default_source: null,
      description: null,
      email: typeof p.email === "string" ? p.email : null,
      invoice_settings: {
        custom_fields: null,
        default_payment_method: null,
        footer: null,
        rendering_options: null,
      },
      livemode: false,
      metadata: (p.metadata as Stripe.Metadata) ?? {},
      shipping: null,
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  protected createSetup(p: Record<string, unknown>): [number, unknown] {
    const customer = String(p.customer ?? "");
    if (!this.customers.has(customer)) return missing("customer", customer, "customer");
    const pmId = String(p.payment_method ?? "");
    const pm = FAKE_CARDS[pmId];
    if (!pm) return missing("payment_method", pmId, "payment_method");
    const setup: Stripe.SetupIntent = {
      id: id("seti"),
      object: "setup_intent",
      allowed_payment_method_types: null,
      application: null,
      automatic_payment_methods: null,
      cancellation_reason: null,
      client_secret: null,
      created: now(),
      customer,
      description: null,
      excluded_payment_method_types: null,
      last_setup_error: null,
      latest_attempt: null,
      livemode: false,
      mandate: null,
      metadata: {},
      next_action: null,
      on_behalf_of: null,
      payment_method: pmId,
      payment_method_configuration_details: null,
      payment_method_options: null,
      payment_method_types: ["card"],
      single_use_mandate: null,
      status: "succeeded",
      usage: String(p.usage ?? "off_session"),
    };
    setup.client_secret = `${setup.id}_secret_${randomBytes(8).toString("hex")}`;
    this.setupIntents.set(setup.id, setup);
    if (pm.setupDecline) {
      const error = { type: "card_error", ...pm.setupDecline, message: "Your card was declined." };
      setup.status = "requires_payment_method";
      setup.last_setup_error = error as Stripe.SetupIntent.LastSetupError;
      return declined(error, { setup_intent: setup });
    }
    if (pm.authentication) {
      setup.status = "requires_action";
      setup.next_action = { type: "use_stripe_sdk" } as Stripe.SetupIntent.NextAction;
    }
    const expand = Array.isArray(p.expand) ? (p.expand as string[]) : [];
    return [
      200,
      expand.includes("payment_method")
        ? { ...setup, payment_method: paymentMethod(pmId, pm, customer) }
        : setup,
    ];
  }

  protected createPayment(p: Record<string, unknown>): [number, unknown] {
    const customer = String(p.customer ?? "");
    if (!this.customers.has(customer)) return missing("customer", customer, "customer");
    const pmId = String(p.payment_method ?? "");
    const pm = FAKE_CARDS[pmId];
    if (!pm) return missing("payment_method", pmId, "payment_method");
    const offSession = p.off_session === "true";
    const intent = newIntent({
      amount: Number(p.amount),
      currency: String(p.currency),
      customer,
      description: typeof p.description === "string" ? p.description : null,
      metadata: (p.metadata as Stripe.Metadata) ?? {},
      payment_method: pmId,
    });
    this.paymentIntents.set(intent.id, intent);
    // A card saved with authentication ("setup") needs none for later payments.
    if (pm.authentication === "every") {
      intent.status = "requires_action";
      intent.next_action = { type: "use_stripe_sdk" } as Stripe.PaymentIntent.NextAction;
      if (offSession) {
        // The customer is not there: Stripe declines with the intent, to be completed on-session.
        const error = {
          type: "card_error",
          code: "authentication_required",
          decline_code: "authentication_required",
          message: "Your card was declined. This transaction requires authentication.",
        };
        intent.status = "requires_payment_method";
        intent.next_action = null;
        intent.last_payment_error = error as Stripe.PaymentIntent.LastPaymentError;
        return declined(error, { payment_intent: intent });
      }
      return [200, intent];
    }
    if (pm.chargeDecline) {
      const error = { type: "card_error", ...pm.chargeDecline, message: "Your card was declined." };
      intent.status = "requires_payment_method";
      intent.last_payment_error = error as Stripe.PaymentIntent.LastPaymentError;
      return declined(error, { payment_intent: intent });
    }
    this.succeed(intent);
    return [200, intent];
  }

  /**
   * POST /v1/payment_intents/:id/cancel: an intent that has not succeeded is cancelled, and every
   * later operation on it fails ("requires_payment_method, requires_capture,
   * requires_confirmation, requires_action or, in rare cases, processing", Stripe's reference);
   * a succeeded or canceled one answers 400 payment_intent_unexpected_state.
   */
  protected cancelPayment(
    intent: Stripe.PaymentIntent,
    p: Record<string, unknown>,
  ): [number, unknown] {
    const reason = p.cancellation_reason;
    if (reason !== undefined && !CANCELLATION_REASONS.includes(reason as never)) {
      return [
        400,
        {
          error: {
            type: "invalid_request_error",
            code: "parameter_invalid_string",
            param: "cancellation_reason",
            message: `Invalid cancellation_reason: must be one of ${CANCELLATION_REASONS.join(", ")}`,
          },
        },
      ];
    }
    if (intent.status === "succeeded" || intent.status === "canceled") {
      return unexpectedState(intent, "cancel");
    }
    intent.status = "canceled";
    intent.canceled_at = now();
    intent.cancellation_reason = (reason ?? null) as Stripe.PaymentIntent.CancellationReason | null;
    intent.next_action = null;
    return [200, intent];
  }

  /**
   * POST /v1/payment_intents/:id/confirm, as Stripe.js's confirmCardPayment sends it from the
   * renewal's page: an intent that waits for the customer now waits for the bank's step
   * (`authenticate` plays it); a succeeded or canceled one cannot be confirmed.
   */
  protected confirmPayment(intent: Stripe.PaymentIntent): [number, unknown] {
    if (intent.status === "succeeded" || intent.status === "canceled") {
      return unexpectedState(intent, "confirm");
    }
    if (intent.status === "requires_payment_method" || intent.status === "requires_action") {
      intent.status = "requires_action";
      intent.last_payment_error = null;
      intent.next_action = { type: "use_stripe_sdk" } as Stripe.PaymentIntent.NextAction;
    }
    return [200, intent];
  }

  protected succeed(intent: Stripe.PaymentIntent): void {
    const charge = {
      id: id("ch"),
      object: "charge",
      amount: intent.amount,
      amount_captured: intent.amount,
      amount_refunded: 0,
      captured: true,
      created: now(),
      currency: intent.currency,
      customer: intent.customer,
      disputed: false,
      livemode: false,
      metadata: intent.metadata,
      paid: true,
      payment_intent: intent.id,
      refunded: false,
      status: "succeeded",
    } as Pick<
      Stripe.Charge,
      | "id"
      | "object"
      | "amount"
      | "amount_captured"
      | "amount_refunded"
      | "captured"
      | "created"
      | "currency"
      | "customer"
      | "disputed"
      | "livemode"
      | "metadata"
      | "paid"
      | "payment_intent"
      | "refunded"
      | "status"
    > as Stripe.Charge;
    this.charges.set(charge.id, charge);
    intent.status = "succeeded";
    intent.amount_received = intent.amount;
    intent.latest_charge = charge.id;
  }

  protected refund(charge: Stripe.Charge, amount: number): Stripe.Refund {
    const refund: Stripe.Refund = {
      id: id("re"),
      object: "refund",
      amount,
      balance_transaction: null,
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      customer: charge.customer,
      customer_account: null,
      metadata: {},
      payment_intent: charge.payment_intent,
      payment_method: null,
      reason: null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: "succeeded",
      transfer_reversal: null,
    };
    this.refunds.set(refund.id, refund);
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded >= charge.amount;
    return refund;
  }

  protected search(p: Record<string, unknown>): unknown {
    const query = String(p.query ?? "");
    const m = query.match(/^metadata\['([^']+)'\]:'((?:[^'\\]|\\.)*)'$/);
    const data = m
      ? [...this.paymentIntents.values()].filter(
          (i) => i.metadata[m[1] as string] === (m[2] as string).replace(/\\'/g, "'"),
        )
      : [];
    return {
      object: "search_result",
      data,
      has_more: false,
      next_page: null,
      url: "/v1/payment_intents/search",
    };
  }

  protected list(p: Record<string, unknown>): unknown {
    const created = p.created as { gte?: string } | undefined;
    const gte = created?.gte ? Number(created.gte) : 0;
    const expand = Array.isArray(p.expand) ? (p.expand as string[]) : [];
    const data = [...this.paymentIntents.values()]
      .filter((i) => i.created >= gte)
      .sort((a, b) => b.created - a.created)
      .map((i) =>
        // As Stripe expands a list's field: `data.latest_charge` gives the Charge object.
        expand.includes("data.latest_charge") && typeof i.latest_charge === "string"
          ? { ...i, latest_charge: this.charges.get(i.latest_charge) ?? i.latest_charge }
          : i,
      );
    return { object: "list", data, has_more: false, url: "/v1/payment_intents" };
  }
}
