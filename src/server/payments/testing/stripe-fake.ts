// A local fake of Stripe's HTTP API for exactly the calls the provider, the webhooks and the
// reconciliation make, so that the real `stripe` SDK can be driven through STRIPE_API_URL in
// tests (no network to Stripe here). Its objects are typed with the SDK's own types and checked
// against Stripe's published fixtures (stripe-fake.test.ts). Test-only: nothing in the server
// imports it.
//
// What it does as Stripe does: test PaymentMethods (`pm_card_visa`, ...) behave as Stripe's test
// cards (declines with code and decline_code, 3-D Secure on setup or on every payment);
// idempotency keys replay the first answer with `Idempotent-Replayed: true`; a deleted customer
// answers resource_missing; search finds PaymentIntents by metadata; a PaymentIntent is cancelled
// in the statuses Stripe allows (400 payment_intent_unexpected_state once succeeded or canceled),
// and a canceled one can no longer be confirmed. What it adds: faults, queued
// per call (`fault()`), to test what a real network does: the answer lost after the work was done,
// a 5xx without an error object, a slow answer, 429; and dashboard actions (refund, dispute,
// completing or failing a 3-D Secure step) as methods.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type Stripe from "stripe";

/** A Stripe test card as the fake plays it. */
type FakeCard = {
  brand: string;
  last4: string;
  /** Declined when set up (saved). */
  setupDecline: { code: string; decline_code: string } | null;
  /** Declined when charged. */
  chargeDecline: { code: string; decline_code: string } | null;
  /** 3-D Secure: when setting up only ("setup"), or on every payment ("every"). */
  authentication: "setup" | "every" | null;
};

const decline = (code: string, decline_code = code) => ({ code, decline_code });

/** Stripe's test PaymentMethods (https://docs.stripe.com/testing), by id. */
export const FAKE_CARDS: Record<string, FakeCard> = {
  pm_card_visa: card("visa", "4242"),
  pm_card_mastercard: card("mastercard", "4444"),
  pm_card_visa_chargeDeclined: card("visa", "0002", {
    setupDecline: decline("card_declined", "generic_decline"),
  }),
  pm_card_visa_chargeDeclinedInsufficientFunds: card("visa", "9995", {
    setupDecline: decline("card_declined", "insufficient_funds"),
  }),
  pm_card_visa_chargeDeclinedExpiredCard: card("visa", "0069", {
    setupDecline: decline("expired_card"),
  }),
  pm_card_visa_chargeDeclinedIncorrectCvc: card("visa", "0127", {
    setupDecline: decline("incorrect_cvc"),
  }),
  pm_card_visa_chargeDeclinedProcessingError: card("visa", "0119", {
    setupDecline: decline("processing_error"),
  }),
  pm_card_chargeCustomerFail: card("visa", "0341", {
    chargeDecline: decline("card_declined", "generic_decline"),
  }),
  // 4000 0025 0000 3155: authentication when saved, then off-session payments succeed.
  pm_card_authenticationRequiredOnSetup: card("visa", "3155", { authentication: "setup" }),
  // 4000 0027 6000 3184: authentication on every payment.
  pm_card_authenticationRequired: card("visa", "3184", { authentication: "every" }),
  // 4000 0082 6000 3178: authentication succeeds, then insufficient funds.
  pm_card_authenticationRequiredChargeDeclinedInsufficientFunds: card("visa", "3178", {
    authentication: "every",
    chargeDecline: decline("card_declined", "insufficient_funds"),
  }),
};

function card(brand: string, last4: string, rest: Partial<FakeCard> = {}): FakeCard {
  return {
    brand,
    last4,
    setupDecline: null,
    chargeDecline: null,
    authentication: null,
    ...rest,
  };
}

/** What can go wrong with one call (consumed by the next matching request). */
export type Fault =
  /** The work is done, then the connection is cut: the answer is lost. */
  | { kind: "lose-answer" }
  /** The work is done, then 500 with a body that is not an error object. */
  | { kind: "5xx-no-error"; status?: number }
  /** The work is not done: 429 rate_limit. */
  | { kind: "rate-limit" }
  /** The work is done, the answer sent after `ms`. */
  | { kind: "slow"; ms: number }
  /** The connection is refused before anything is read (the request never arrives). */
  | { kind: "reset-before" }
  /** The work is done, and the answer is another stored PaymentIntent (a proxy's or cache's mix-up). */
  | { kind: "other-intent"; id: string };

export type FakeRequest = {
  method: string;
  path: string;
  params: Record<string, unknown>;
  idempotencyKey: string | undefined;
  apiVersion: string | undefined;
  authorization: string | undefined;
};

type Stored = { status: number; body: string };

function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
}

/** Stripe's form encoding (`a[b][0]=x`) read back into objects and arrays. */
export function parseForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      if (last) {
        node[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(parts[i + 1] as string);
      node[part] ??= nextIsIndex ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}

const now = () => Math.floor(Date.now() / 1000);

export class StripeFake {
  readonly customers = new Map<string, Stripe.Customer>();
  readonly deletedCustomers = new Set<string>();
  readonly setupIntents = new Map<string, Stripe.SetupIntent>();
  readonly paymentIntents = new Map<string, Stripe.PaymentIntent>();
  readonly charges = new Map<string, Stripe.Charge>();
  readonly refunds = new Map<string, Stripe.Refund>();
  readonly disputes = new Map<string, Stripe.Dispute>();
  /** Every request received, in order. */
  readonly requests: FakeRequest[] = [];
  private readonly idempotent = new Map<string, Stored>();
  private readonly faults: { match: (r: FakeRequest) => boolean; fault: Fault }[] = [];
  private server: Server | null = null;
  url = "";

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      void this.handle(req, res);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** Queues a fault for the next request to `method path` (path a prefix, such as /v1/payment_intents). */
  fault(method: string, pathPrefix: string, fault: Fault): void {
    this.faults.push({
      match: (r) => r.method === method && r.path.startsWith(pathPrefix),
      fault,
    });
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  /** Succeeded PaymentIntents (one per real charge). */
  succeededPayments(): Stripe.PaymentIntent[] {
    return [...this.paymentIntents.values()].filter((p) => p.status === "succeeded");
  }

  // Dashboard actions -------------------------------------------------------------------------

  /** A refund made in the dashboard (the whole remaining amount when no amount is given). */
  dashboardRefund(paymentIntentId: string, amount?: number): Stripe.Refund {
    const intent = this.paymentIntents.get(paymentIntentId);
    const charge = intent?.latest_charge ? this.charges.get(intent.latest_charge as string) : null;
    if (!intent || !charge) throw new Error(`no charge for ${paymentIntentId}`);
    return this.refund(charge, amount ?? charge.amount - charge.amount_refunded);
  }

  /** A dispute opened by the cardholder's bank. */
  openDispute(paymentIntentId: string): Stripe.Dispute {
    const intent = this.paymentIntents.get(paymentIntentId);
    const chargeId = intent?.latest_charge as string | undefined;
    const charge = chargeId ? this.charges.get(chargeId) : undefined;
    if (!intent || !charge) throw new Error(`no charge for ${paymentIntentId}`);
    const dispute = {
      id: id("dp"),
      object: "dispute",
      amount: charge.amount,
      charge: charge.id,
      created: now(),
      currency: "usd",
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: intent.id,
      reason: "fraudulent",
      status: "needs_response",
    } as Pick<
      Stripe.Dispute,
      | "id"
      | "object"
      | "amount"
      | "charge"
      | "created"
      | "currency"
      | "is_charge_refundable"
      | "livemode"
      | "metadata"
      | "payment_intent"
      | "reason"
      | "status"
    > as Stripe.Dispute;
    this.disputes.set(dispute.id, dispute);
    charge.disputed = true;
    return dispute;
  }

  closeDispute(disputeId: string, status: "won" | "lost"): Stripe.Dispute {
    const dispute = this.disputes.get(disputeId);
    if (!dispute) throw new Error(`no dispute ${disputeId}`);
    dispute.status = status;
    return dispute;
  }

  deleteCustomer(customerId: string): void {
    this.customers.delete(customerId);
    this.deletedCustomers.add(customerId);
  }

  /**
   * The customer completes (or fails) the bank's step of a PaymentIntent or SetupIntent. An
   * off-session payment declined with authentication_required is confirmed again on-session
   * first (Stripe.js's confirmCardPayment with its client secret and card), then authenticated.
   */
  authenticate(intentId: string, outcome: "complete" | "fail"): void {
    const setup = this.setupIntents.get(intentId);
    if (setup) {
      setup.next_action = null;
      if (outcome === "complete") setup.status = "succeeded";
      else {
        setup.status = "requires_payment_method";
        setup.last_setup_error = authenticationFailure() as Stripe.SetupIntent.LastSetupError;
      }
      return;
    }
    const intent = this.paymentIntents.get(intentId);
    // Stripe.js's confirm of a canceled (or succeeded) intent fails: no step to complete.
    if (intent?.status === "canceled" || intent?.status === "succeeded") {
      throw new Error(`payment_intent_unexpected_state: the payment is ${intent.status}`);
    }
    if (
      intent?.status === "requires_payment_method" &&
      intent.last_payment_error?.code === "authentication_required"
    ) {
      intent.status = "requires_action";
      intent.last_payment_error = null;
    }
    if (intent?.status !== "requires_action") throw new Error("nothing to authenticate");
    intent.next_action = null;
    if (outcome === "fail") {
      intent.status = "requires_payment_method";
      intent.last_payment_error = authenticationFailure() as Stripe.PaymentIntent.LastPaymentError;
      return;
    }
    const pm = FAKE_CARDS[intent.payment_method as string];
    if (pm?.chargeDecline) {
      intent.status = "requires_payment_method";
      intent.last_payment_error = {
        type: "card_error",
        ...pm.chargeDecline,
        message: "Your card was declined.",
      } as Stripe.PaymentIntent.LastPaymentError;
      return;
    }
    this.succeed(intent);
  }

  /**
   * An event as Stripe sends it, carrying a copy of `object` (which may be stale by the time it
   * arrives: the server fetches the object again).
   */
  event(type: string, object: { id: string; object: string }): Stripe.Event {
    return {
      id: id("evt"),
      object: "event",
      api_version: "2026-10-28.endive",
      created: now(),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    } as unknown as Stripe.Event;
  }

  // HTTP --------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://fake");
    const body = Buffer.concat(chunks).toString();
    const params =
      req.method === "GET" || req.method === "DELETE"
        ? parseForm(url.search.slice(1))
        : parseForm(body);
    const request: FakeRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      params,
      idempotencyKey: req.headers["idempotency-key"] as string | undefined,
      apiVersion: req.headers["stripe-version"] as string | undefined,
      authorization: req.headers.authorization,
    };
    this.requests.push(request);
    const at = this.faults.findIndex((f) => f.match(request));
    const fault = at >= 0 ? this.faults.splice(at, 1)[0]?.fault : undefined;
    if (fault?.kind === "reset-before") {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "rate-limit") {
      this.send(res, 429, {
        error: { type: "invalid_request_error", code: "rate_limit", message: "Too many requests" },
      });
      return;
    }
    let stored: Stored;
    let replayed = false;
    const key = request.idempotencyKey;
    const earlier = key && request.method === "POST" ? this.idempotent.get(key) : undefined;
    if (earlier) {
      stored = earlier;
      replayed = true;
    } else {
      const [status, payload] = this.route(request);
      stored = { status, body: JSON.stringify(payload) };
      // Stripe keeps the answer of a key, errors of the card included (not 429 or 5xx).
      if (key && request.method === "POST" && status < 500) this.idempotent.set(key, stored);
    }
    if (fault?.kind === "lose-answer") {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "5xx-no-error") {
      res.writeHead(fault.status ?? 500, { "content-type": "application/json" });
      res.end(JSON.stringify({ status: "unavailable" }));
      return;
    }
    if (fault?.kind === "other-intent") {
      stored = { status: 200, body: JSON.stringify(this.paymentIntents.get(fault.id) ?? null) };
    }
    if (fault?.kind === "slow") await new Promise((r) => setTimeout(r, fault.ms));
    if (res.destroyed) return;
    res.writeHead(stored.status, {
      "content-type": "application/json",
      "request-id": id("req"),
      ...(replayed ? { "idempotent-replayed": "true" } : {}),
    });
    res.end(stored.body);
  }

  private send(res: ServerResponse, status: number, payload: unknown): void {
    res.writeHead(status, { "content-type": "application/json", "request-id": id("req") });
    res.end(JSON.stringify(payload));
  }

  private route(r: FakeRequest): [number, unknown] {
    const { method, path } = r;
    const p = r.params;
    let m: RegExpMatchArray | null;
    if (method === "POST" && path === "/v1/customers") return [200, this.createCustomer(p)];
    m = path.match(/^\/v1\/customers\/([^/]+)$/);
    if (m) {
      const cid = m[1] as string;
      if (method === "DELETE") {
        this.deleteCustomer(cid);
        return [200, { id: cid, object: "customer", deleted: true }];
      }
      if (this.deletedCustomers.has(cid))
        return [200, { id: cid, object: "customer", deleted: true }];
      const customer = this.customers.get(cid);
      return customer ? [200, customer] : missing("customer", cid);
    }
    if (method === "POST" && path === "/v1/setup_intents") return this.createSetup(p);
    m = path.match(/^\/v1\/setup_intents\/([^/]+)$/);
    if (m) {
      const s = this.setupIntents.get(m[1] as string);
      if (!s) return missing("setup_intent", m[1] as string);
      const pmId = s.payment_method as string;
      const pm = FAKE_CARDS[pmId];
      const expand = Array.isArray(p.expand) ? (p.expand as string[]) : [];
      return [
        200,
        expand.includes("payment_method") && pm
          ? { ...s, payment_method: paymentMethod(pmId, pm, s.customer as string) }
          : s,
      ];
    }
    if (method === "GET" && path === "/v1/payment_intents/search") return [200, this.search(p)];
    if (method === "GET" && path === "/v1/payment_intents") return [200, this.list(p)];
    if (method === "POST" && path === "/v1/payment_intents") return this.createPayment(p);
    m = path.match(/^\/v1\/payment_intents\/([^/]+)\/(cancel|confirm)$/);
    if (m && method === "POST") {
      const pi = this.paymentIntents.get(m[1] as string);
      if (!pi) return missing("payment_intent", m[1] as string);
      return m[2] === "cancel" ? this.cancelPayment(pi, p) : this.confirmPayment(pi);
    }
    m = path.match(/^\/v1\/payment_intents\/([^/]+)$/);
    if (m) {
      const pi = this.paymentIntents.get(m[1] as string);
      return pi ? [200, pi] : missing("payment_intent", m[1] as string);
    }
    m = path.match(/^\/v1\/payment_methods\/([^/]+)\/detach$/);
    if (m && method === "POST") {
      // The fake's cards are shared by its customers: a detach is seen in `requests`, and the
      // card comes back attached to no customer, as Stripe answers.
      const pm = FAKE_CARDS[m[1] as string];
      return pm
        ? [200, paymentMethod(m[1] as string, pm, null)]
        : missing("payment_method", m[1] as string);
    }
    m = path.match(/^\/v1\/payment_methods\/([^/]+)$/);
    if (m) {
      const pm = FAKE_CARDS[m[1] as string];
      return pm
        ? [200, paymentMethod(m[1] as string, pm, null)]
        : missing("payment_method", m[1] as string);
    }
    m = path.match(/^\/v1\/charges\/([^/]+)$/);
    if (m) {
      const ch = this.charges.get(m[1] as string);
      return ch ? [200, ch] : missing("charge", m[1] as string);
    }
    if (method === "POST" && path === "/v1/refunds") {
      const pi = this.paymentIntents.get(String(p.payment_intent));
      const ch = pi?.latest_charge ? this.charges.get(pi.latest_charge as string) : undefined;
      if (!ch) return missing("payment_intent", String(p.payment_intent));
      const amount = p.amount === undefined ? ch.amount - ch.amount_refunded : Number(p.amount);
      if (amount <= 0 || amount > ch.amount - ch.amount_refunded) {
        return [
          400,
          {
            error: {
              type: "invalid_request_error",
              code: "charge_already_refunded",
              message: "Charge has already been refunded.",
            },
          },
        ];
      }
      const refund = this.refund(ch, amount);
      if (p.metadata) refund.metadata = p.metadata as Stripe.Metadata;
      return [200, refund];
    }
    if (method === "GET" && path === "/v1/refunds") {
      const data = [...this.refunds.values()].filter((rf) => rf.charge === p.charge);
      return [200, { object: "list", data, has_more: false, url: "/v1/refunds" }];
    }
    m = path.match(/^\/v1\/refunds\/([^/]+)$/);
    if (m) {
      const rf = this.refunds.get(m[1] as string);
      return rf ? [200, rf] : missing("refund", m[1] as string);
    }
    m = path.match(/^\/v1\/disputes\/([^/]+)$/);
    if (m) {
      const dp = this.disputes.get(m[1] as string);
      return dp ? [200, dp] : missing("dispute", m[1] as string);
    }
    return [
      404,
      {
        error: {
          type: "invalid_request_error",
          message: `Unrecognized request URL (${method}: ${path})`,
        },
      },
    ];
  }

  private createCustomer(p: Record<string, unknown>): Stripe.Customer {
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

  private createSetup(p: Record<string, unknown>): [number, unknown] {
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

  private createPayment(p: Record<string, unknown>): [number, unknown] {
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
  private cancelPayment(
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
  private confirmPayment(intent: Stripe.PaymentIntent): [number, unknown] {
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

  private succeed(intent: Stripe.PaymentIntent): void {
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

  private refund(charge: Stripe.Charge, amount: number): Stripe.Refund {
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

  private search(p: Record<string, unknown>): unknown {
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

  private list(p: Record<string, unknown>): unknown {
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

/**
 * Stripe's answer to a refused card: 402 with the error, and the intent the refusal left behind
 * (its last error is the same object).
 */
function declined(
  error: Record<string, unknown>,
  left: { payment_intent: Stripe.PaymentIntent } | { setup_intent: Stripe.SetupIntent },
): [number, unknown] {
  return [402, { error: { ...error, ...left } }];
}

/** Stripe's values of a PaymentIntent's cancellation_reason that a cancel request may give. */
const CANCELLATION_REASONS = ["duplicate", "fraudulent", "requested_by_customer", "abandoned"];

/** Stripe's answer to an operation the intent's status does not allow (the intent included). */
function unexpectedState(
  intent: Stripe.PaymentIntent,
  what: "cancel" | "confirm",
): [number, unknown] {
  return [
    400,
    {
      error: {
        type: "invalid_request_error",
        code: "payment_intent_unexpected_state",
        message: `You cannot ${what} this PaymentIntent because it has a status of ${intent.status}.`,
        payment_intent: intent,
      },
    },
  ];
}

function authenticationFailure() {
  return {
    type: "invalid_request_error",
    code: "payment_intent_authentication_failure",
    message: "The provided PaymentMethod has failed authentication.",
  };
}

function missing(kind: string, what: string, param?: string): [number, unknown] {
  return [
    404,
    {
      error: {
        type: "invalid_request_error",
        code: "resource_missing",
        message: `No such ${kind}: '${what}'`,
        ...(param ? { param } : {}),
      },
    },
  ];
}

function paymentMethod(pmId: string, pm: FakeCard, customer: string | null): Stripe.PaymentMethod {
  return {
    id: pmId,
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    card: {
      brand: pm.brand,
      checks: null,
      country: "US",
      display_brand: pm.brand,
      exp_month: 12,
      exp_year: 2034,
      funding: "credit",
      generated_from: null,
      last4: pm.last4,
      networks: null,
      regulated_status: null,
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: now(),
    customer,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: "card",
  };
}

function newIntent(fields: {
  amount: number;
  currency: string;
  customer: string;
  description: string | null;
  metadata: Stripe.Metadata;
  payment_method: string;
}): Stripe.PaymentIntent {
  const intentId = id("pi");
  return {
    id: intentId,
    object: "payment_intent",
    allowed_payment_method_types: null,
    amount: fields.amount,
    amount_capturable: 0,
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic",
    client_secret: `${intentId}_secret_${randomBytes(8).toString("hex")}`,
    confirmation_method: "automatic",
    created: now(),
    currency: fields.currency,
    customer: fields.customer,
    customer_account: null,
    description: fields.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: fields.payment_method,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ["card"],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: "requires_confirmation",
    transfer_group: null,
  };
}
