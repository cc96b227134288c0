// The card payment provider seam: the sandbox (default, local test cards) and Stripe implement it.
// PayPal's Subscriptions API sits beside it (paypal-client.ts, app.paypal): the customer approves
// and PayPal bills, the server never charges (docs/decisions/0083).
// Amounts are integer cents in USD. Every call that moves money takes an idempotency key, which
// the provider honours (Stripe natively, the sandbox in its ledger), so a retried call never
// charges twice.
//
// A provider answers one of four things (docs/decisions/0037): succeeded; requires action (the
// card's bank wants the customer to authenticate); declined (with the section-8 code); or
// unknown. Unknown is never a failure: the request may have charged the card, so the caller keeps
// its order key, says "being confirmed", and asks again with the same key (the provider finds
// the first payment instead of making another) or leaves it to the reconciliation job.

export type ProviderFailure =
  /** The card was refused; `code` is the section-8 code (decline_code before code). */
  | { ok: false; kind: "card"; code: string }
  /** The request was wrong (unknown or used token, no card on file). Nothing was charged. */
  | { ok: false; kind: "invalid"; message: string }
  /** The provider could not be reached and no request reached it: nothing was charged. */
  | { ok: false; kind: "unavailable"; message: string }
  /**
   * A request may have reached the provider, and no answer says what it did (timeout, reset,
   * 5xx, an answer that fails validation): perhaps charged. Ask again with the same key.
   */
  | { ok: false; kind: "unknown"; message: string };

/** The customer must authenticate this payment or card in the page (3-D Secure). */
export type ActionRequired = {
  ok: false;
  kind: "action";
  /** The provider's payment (pi_…) or setup (seti_…) id. */
  intentId: string;
  /** What the browser's SDK needs to show the bank's step (Stripe's client secret). */
  clientSecret: string;
  /** The page that shows the step, for a provider without a client SDK (the sandbox's). */
  url?: string;
};

export type AttachResult =
  | {
      ok: true;
      customerId: string;
      /** The saved card's id at the provider (Stripe's pm_…), null when the customer is enough. */
      paymentMethodId: string | null;
      brand: string;
      last4: string;
    }
  | ActionRequired
  | ProviderFailure;

export type ChargeResult =
  | {
      ok: true;
      chargeId: string;
      /**
       * The provider made this charge in this very call: no earlier call with its idempotency
       * key did, so nothing of ours can name it yet. Absent when the provider cannot tell (or
       * answered an earlier call's charge).
       */
      new?: true;
    }
  | ActionRequired
  | ProviderFailure;

export type ChargeInput = {
  customerId: string;
  /** The saved card (AttachResult's paymentMethodId). */
  paymentMethodId: string | null;
  amount: number;
  description: string;
  /** The provider's idempotency key: one per order attempt (or renewal claim and attempt). */
  idempotencyKey: string;
  /** Our order key, stored on the payment so that it can be found without its id. */
  orderKey: string;
  /** A renewal: the customer is not there, the saved mandate is used. */
  offSession: boolean;
  metadata: Record<string, string>;
};

/**
 * What cancelling a payment that waits for the customer answered (docs/decisions/0070):
 * `cancelled`, it can no longer be paid (or never was: refused, cancelled before); `succeeded`,
 * it was paid meanwhile and the caller must record it (or give the money back); `unknown`, the
 * provider could not say: ask again later, and never take it for cancelled.
 */
export type CancelResult =
  | { kind: "cancelled" }
  | { kind: "succeeded"; chargeId: string }
  | { kind: "unknown"; message: string };

export interface PaymentProvider {
  readonly name: "sandbox" | "stripe";
  /** Saves the card of a one-time token on the customer (created when customerId is null). */
  attachCard(input: {
    customerId: string | null;
    userId: number;
    email: string;
    token: string;
    idempotencyKey: string;
  }): Promise<AttachResult>;
  /** Charges the customer's saved card. */
  charge(input: ChargeInput): Promise<ChargeResult>;
  /**
   * The payment made for an order key, as the provider has it now: succeeded, declined, still
   * waiting for the customer (action), unknown, or `null` when no payment carries the key.
   * Used after an authentication step and by the reconciliation job.
   */
  findPayment(input: {
    customerId: string;
    orderKey: string;
    amount: number;
    paymentId?: string | null;
  }): Promise<ChargeResult | null>;
  /**
   * Cancels a payment that waits for the customer (a renewal's, refused with
   * authentication_required), so that a page still open with its client secret can no longer
   * pay it. The payment is named by its id and checked as findPayment checks it.
   */
  cancelPayment(input: {
    customerId: string;
    orderKey: string;
    amount: number;
    paymentId: string;
  }): Promise<CancelResult>;
  /**
   * Takes the saved card off the customer at the provider (Stripe: the PaymentMethod detached),
   * so nothing can charge it again: an account deleted or converted to free (issue 33 item 4).
   * A card already gone counts as removed; `ok: false` when the provider could not be reached.
   */
  removeCard(input: {
    customerId: string;
    paymentMethodId: string | null;
  }): Promise<{ ok: true } | { ok: false; message: string }>;
}
