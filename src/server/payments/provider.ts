// The payment provider seam: the sandbox (default, local test cards) and Stripe implement it.
// Amounts are integer cents in USD. Every call that moves money takes an idempotency key, which
// the provider honours (Stripe natively, the sandbox in its ledger), so a retried call never
// charges twice.

export type ProviderFailure =
  /** The card was refused; `code` is the provider's code (card_declined, expired_card, ...). */
  | { ok: false; kind: "card"; code: string }
  /** The request was wrong (unknown or used token, no card on file). */
  | { ok: false; kind: "invalid"; message: string }
  /** The provider could not be reached or failed; nothing was charged. */
  | { ok: false; kind: "unavailable"; message: string };

export type AttachResult =
  | { ok: true; customerId: string; brand: string; last4: string }
  | ProviderFailure;
export type ChargeResult = { ok: true; chargeId: string } | ProviderFailure;

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
  charge(input: {
    customerId: string;
    amount: number;
    description: string;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<ChargeResult>;
}
