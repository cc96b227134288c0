// The Stripe provider, through the official server SDK at a pinned API version
// (docs/decisions/0037). Cards are PaymentMethods made by Stripe Elements in the browser; saving
// one is a SetupIntent for off-session use (the mandate renewals charge), every payment is a
// PaymentIntent carrying our order key in its metadata and our idempotency key.
//
// What a reply means is decided here, and only from what Stripe said:
// - a card error is a decline, its section-8 code taken from decline_code before code
//   (`insufficient_funds` arrives as code card_declined);
// - a timeout, a reset or a 5xx after the request left is unknown, never a failure: the payment
//   is looked up by its order key before answering, and stays "unknown" when that fails too;
// - a reply is trusted only when it is what was asked for: the object, its status, amount,
//   currency, customer and order key (a 5xx without an error object is parsed by the SDK as a
//   success, and would otherwise be taken for one);
// - every call ends within `deadlineMs`, under the browser's own 30-second timeout.
import Stripe from "stripe";
import type {
  ActionRequired,
  AttachResult,
  CancelResult,
  ChargeInput,
  ChargeResult,
  PaymentProvider,
} from "./provider.ts";
import {
  customerIdOf,
  declineCodeOf,
  failure,
  matches,
  missingCustomer,
  outcomeOf,
  replayed,
  requestIdOf,
  UntrustedReply,
} from "./stripe-replies.ts";
import { attemptsWithin, lookupPayment, type PaymentLookup } from "./stripe-requests.ts";

/** The API version every request is made at (the SDK's own; upgrade both together). */
export const STRIPE_API_VERSION = "2026-10-28.endive" as const;

export type StripeOptions = {
  secretKey: string;
  apiUrl: string | null;
  /** Told of each failed or unknown call, with Stripe's request id. */
  log?: (line: string) => void;
  /** The whole of one provider call, lookups included (default 20 s: the browser waits 30 s). */
  deadlineMs?: number;
  /** One HTTP request (default 8 s). */
  requestTimeoutMs?: number;
};

/** Where a Stripe client sends requests: Stripe, or the fake of the tests (STRIPE_API_URL). */
export function stripeClient(secretKey: string, apiUrl: string | null, timeoutMs = 8_000): Stripe {
  const url = apiUrl ? new URL(apiUrl) : null;
  return new Stripe(secretKey, {
    apiVersion: STRIPE_API_VERSION,
    // Retries are ours (attempts below): the SDK's would hide whether an earlier try had left.
    maxNetworkRetries: 0,
    timeout: timeoutMs,
    ...(url
      ? {
          host: url.hostname,
          port: Number(url.port || (url.protocol === "https:" ? 443 : 80)),
          protocol: url.protocol === "https:" ? ("https" as const) : ("http" as const),
        }
      : {}),
  });
}

export function createStripeProvider(options: StripeOptions): PaymentProvider {
  const requestTimeoutMs = options.requestTimeoutMs ?? 8_000;
  const deadlineMs = options.deadlineMs ?? 20_000;
  const stripe = stripeClient(options.secretKey, options.apiUrl, requestTimeoutMs);
  const log = options.log ?? ((line: string) => console.warn(line));

  const attempts = attemptsWithin(requestTimeoutMs, log);
  const lookup = (input: PaymentLookup, deadline: number) =>
    lookupPayment({ stripe, attempts, log }, input, deadline);

  async function newCustomer(
    input: { userId: number; email: string; idempotencyKey: string },
    deadline: number,
    state: { left: boolean },
  ): Promise<string> {
    const customer = await attempts(
      "customer create",
      deadline,
      (timeout) =>
        stripe.customers.create(
          { email: input.email, metadata: { userId: String(input.userId) } },
          { idempotencyKey: `${input.idempotencyKey}:customer`, timeout },
        ),
      state,
    );
    if (customer?.object !== "customer" || typeof customer.id !== "string") {
      throw new UntrustedReply("the customer created is not a customer");
    }
    return customer.id;
  }

  async function setUp(
    customerId: string,
    token: string,
    key: string,
    deadline: number,
    state: { left: boolean },
  ): Promise<Stripe.SetupIntent> {
    const intent = await attempts(
      "setup",
      deadline,
      (timeout) =>
        stripe.setupIntents.create(
          {
            customer: customerId,
            payment_method: token,
            usage: "off_session",
            automatic_payment_methods: { enabled: true, allow_redirects: "never" },
            confirm: true,
            expand: ["payment_method"],
          },
          { idempotencyKey: key, timeout },
        ),
      state,
    );
    if (
      intent?.object !== "setup_intent" ||
      customerIdOf(intent.customer as string | { id: string } | null) !== customerId
    ) {
      throw new UntrustedReply("the setup answered is not the one asked for");
    }
    // Asked again after the bank's step: the replay says what the setup was, not what it is.
    if (replayed(intent) && intent.status !== "succeeded") {
      return attempts(
        "setup lookup",
        deadline,
        (timeout) =>
          stripe.setupIntents.retrieve(intent.id, { expand: ["payment_method"] }, { timeout }),
        state,
      );
    }
    return intent;
  }

  return {
    name: "stripe",

    async attachCard({ customerId, userId, email, token, idempotencyKey }): Promise<AttachResult> {
      const deadline = Date.now() + deadlineMs;
      const state = { left: false };
      try {
        let customer =
          customerId ?? (await newCustomer({ userId, email, idempotencyKey }, deadline, state));
        let intent: Stripe.SetupIntent;
        try {
          intent = await setUp(customer, token, `${idempotencyKey}:setup`, deadline, state);
        } catch (error) {
          if (!missingCustomer(error)) throw error;
          // The customer was deleted in Stripe, or the keys are another account's: a new one.
          log(`stripe: customer ${customer} is missing (request ${requestIdOf(error)}): new one`);
          customer = await newCustomer(
            { userId, email, idempotencyKey: `${idempotencyKey}:renewed` },
            deadline,
            state,
          );
          intent = await setUp(customer, token, `${idempotencyKey}:setup2`, deadline, state);
        }
        if (intent.status === "requires_action") {
          if (!intent.client_secret) throw new UntrustedReply("no client secret");
          const action: ActionRequired = {
            ok: false,
            kind: "action",
            intentId: intent.id,
            clientSecret: intent.client_secret,
          };
          return action;
        }
        if (intent.status === "requires_payment_method" && intent.last_setup_error) {
          return { ok: false, kind: "card", code: declineCodeOf(intent.last_setup_error) };
        }
        const method = intent.payment_method as Stripe.PaymentMethod | null;
        if (intent.status !== "succeeded" || method?.object !== "payment_method" || !method.card) {
          throw new UntrustedReply(`the setup is ${intent.status}`);
        }
        return {
          ok: true,
          customerId: customer,
          paymentMethodId: method.id,
          brand: method.card.brand.toLowerCase(),
          last4: method.card.last4,
        };
      } catch (error) {
        return failure(error, state);
      }
    },

    async charge(input: ChargeInput): Promise<ChargeResult> {
      const deadline = Date.now() + deadlineMs;
      const state = { left: false };
      // A card saved before PaymentIntents (a Charges-era source) has no PaymentMethod to pay with.
      const paymentMethod = input.paymentMethodId;
      if (!paymentMethod) {
        return { ok: false, kind: "invalid", message: "the saved card must be entered again" };
      }
      try {
        const intent = await attempts(
          "payment",
          deadline,
          (timeout) =>
            stripe.paymentIntents.create(
              {
                amount: input.amount,
                currency: "usd",
                customer: input.customerId,
                description: input.description,
                metadata: { ...input.metadata, order_key: input.orderKey },
                // A saved card only: no method that would send the customer elsewhere.
                automatic_payment_methods: { enabled: true, allow_redirects: "never" },
                confirm: true,
                // The card saved with its off-session mandate (attachCard's SetupIntent).
                payment_method: paymentMethod,
                ...(input.offSession ? { off_session: true } : {}),
              },
              { idempotencyKey: input.idempotencyKey, timeout },
            ),
          state,
        );
        if (!matches(intent, input)) throw new UntrustedReply("the payment answered is not ours");
        // A replayed key answers what the first request was answered, not what the payment is
        // now (the customer may have authenticated it since): read it afresh.
        if (replayed(intent) && intent.status !== "succeeded") {
          const current = await lookup({ ...input, paymentId: intent.id }, deadline);
          if (current) return current;
        }
        const outcome = outcomeOf(intent);
        // Not replayed: this request made the payment, so nothing of ours can name it yet.
        return outcome.ok && !replayed(intent) ? { ...outcome, new: true } : outcome;
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          // An off-session payment the bank wants authenticated is a decline with its intent.
          const intent = error.payment_intent;
          if (error.code === "authentication_required" && intent?.client_secret) {
            return {
              ok: false,
              kind: "action",
              intentId: intent.id,
              clientSecret: intent.client_secret,
            };
          }
          log(
            `stripe: payment for order ${input.orderKey} declined (request ${requestIdOf(error)}): ${declineCodeOf(error)}`,
          );
          return { ok: false, kind: "card", code: declineCodeOf(error) };
        }
        if (missingCustomer(error) && !state.left) {
          log(`stripe: customer ${input.customerId} is missing (request ${requestIdOf(error)})`);
          return { ok: false, kind: "invalid", message: "the saved card must be entered again" };
        }
        const result = failure(error, state);
        if (result.kind !== "unknown") return result;
        // The request may have charged: ask Stripe before answering.
        try {
          const found = await lookup(input, deadline);
          if (found) return found;
        } catch {
          // Stripe cannot say either: unknown it stays.
        }
        return result;
      }
    },

    async removeCard({ paymentMethodId }) {
      // Without a PaymentMethod the sandbox-era customer has nothing saved to detach.
      if (paymentMethodId === null) return { ok: true };
      const deadline = Date.now() + deadlineMs;
      try {
        await attempts(
          "card detach",
          deadline,
          (timeout) => stripe.paymentMethods.detach(paymentMethodId, {}, { timeout }),
          { left: false },
        );
        return { ok: true };
      } catch (error) {
        // Detached already (or never attached): nothing can charge it.
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          (error.code === "resource_missing" || /not attached/i.test(error.message))
        )
          return { ok: true };
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
    },

    async cancelPayment(input): Promise<CancelResult> {
      const deadline = Date.now() + deadlineMs;
      const state = { left: false };
      const unknown = (why: unknown): CancelResult => ({
        kind: "unknown",
        message: why instanceof Error ? why.message : String(why),
      });
      let intent: Stripe.PaymentIntent;
      try {
        intent = await attempts(
          "payment cancel",
          deadline,
          (timeout) =>
            stripe.paymentIntents.cancel(
              input.paymentId,
              { cancellation_reason: "abandoned" },
              // Asked again after a lost answer, the key replays the first cancel's answer.
              { idempotencyKey: `${input.orderKey}:cancel`, timeout },
            ),
          state,
        );
      } catch (error) {
        // Stripe's refusal to cancel an intent that is past waiting (succeeded, canceled,
        // processing) says nothing of what it is: read it. Anything else leaves it unknown.
        if (
          !(error instanceof Stripe.errors.StripeInvalidRequestError) ||
          error.code !== "payment_intent_unexpected_state"
        ) {
          return unknown(error);
        }
        try {
          intent = await attempts(
            "payment lookup",
            deadline,
            (timeout) => stripe.paymentIntents.retrieve(input.paymentId, {}, { timeout }),
            state,
          );
        } catch (again) {
          return unknown(again);
        }
      }
      if (intent?.id !== input.paymentId || !matches(intent, input)) {
        log(
          `stripe: payment ${input.paymentId} does not match order ${input.orderKey}: not trusted`,
        );
        return unknown("the payment found does not match the order");
      }
      if (intent.status === "canceled") return { kind: "cancelled" };
      if (intent.status === "succeeded") return { kind: "succeeded", chargeId: intent.id };
      // Processing (a rare payment method mid-way): neither paid nor stoppable yet.
      return unknown(`the payment is ${intent.status}`);
    },

    async findPayment(input) {
      const deadline = Date.now() + deadlineMs;
      try {
        return await lookup(input, deadline);
      } catch (error) {
        return {
          ok: false,
          kind: "unknown",
          message: error instanceof Error ? error.message : String(error),
        };
      }
    },
  };
}
