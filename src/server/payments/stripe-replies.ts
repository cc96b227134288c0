// What Stripe's replies and errors mean (stripe.ts asks, this reads): a decline's code, whether a
// failed request may have reached Stripe or may be tried again, whether a reply is what was asked
// for, and what a PaymentIntent's status means. Decided only from what Stripe said (decision 0037).
import Stripe from "stripe";
import type { ChargeResult, ProviderFailure } from "./provider.ts";

/** The section-8 code of a Stripe decline: its decline_code when that is one we name, else its code. */
export function declineCodeOf(error: { code?: string | null; decline_code?: string | null }) {
  const specific = error.decline_code ?? null;
  const named = new Set([
    "expired_card",
    "incorrect_cvc",
    "processing_error",
    "incorrect_zip",
    "insufficient_funds",
  ]);
  if (specific !== null && named.has(specific)) return specific;
  return error.code ?? "card_declined";
}

/** Whether a failed request may have reached Stripe (and so may have done something). */
export function mayHaveLeft(error: unknown): boolean {
  if (error instanceof Stripe.errors.StripeConnectionError) {
    const detail = error.detail as { code?: string } | undefined;
    // Refused or unresolved: no byte was sent.
    return !(detail && ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"].includes(detail.code ?? ""));
  }
  // 429 (rate limited), 4xx: Stripe answered that it did nothing.
  if (error instanceof Stripe.errors.StripeRateLimitError) return false;
  if (error instanceof Stripe.errors.StripeCardError) return false;
  if (error instanceof Stripe.errors.StripeInvalidRequestError) return false;
  if (error instanceof Stripe.errors.StripeAuthenticationError) return false;
  if (error instanceof Stripe.errors.StripePermissionError) return false;
  return true;
}

export function retryable(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    // In flight under the same key elsewhere (409): the next try gets its answer.
    (error instanceof Stripe.errors.StripeError && error.statusCode === 409)
  );
}

/** A reply that is not the object asked for, or came with an error status. */
export class UntrustedReply extends Error {}

type Reply = { lastResponse?: { statusCode?: number; requestId?: string } };

export function statusOf(reply: unknown): number {
  return (reply as Reply).lastResponse?.statusCode ?? 200;
}

export function replayed(reply: unknown): boolean {
  const headers = (reply as { lastResponse?: { headers?: Record<string, string> } }).lastResponse
    ?.headers;
  return headers?.["idempotent-replayed"] === "true";
}

export function requestIdOf(value: unknown): string {
  if (value instanceof Stripe.errors.StripeError) return value.requestId ?? "none";
  return (value as Reply | null)?.lastResponse?.requestId ?? "none";
}

export function customerIdOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? value : value.id;
}

/** A PaymentIntent's meaning, once it is known to be ours (validated by the caller). */
export function outcomeOf(intent: Stripe.PaymentIntent): ChargeResult {
  switch (intent.status) {
    case "succeeded":
      return { ok: true, chargeId: intent.id };
    case "requires_action":
      return intent.client_secret
        ? { ok: false, kind: "action", intentId: intent.id, clientSecret: intent.client_secret }
        : { ok: false, kind: "unknown", message: "requires_action without a client secret" };
    case "requires_payment_method": {
      const error = intent.last_payment_error;
      // An off-session payment the bank wants authenticated waits for the customer, who
      // confirms it on-session with its client secret (a renewal's dunning page).
      if (error?.code === "authentication_required" && intent.client_secret) {
        return {
          ok: false,
          kind: "action",
          intentId: intent.id,
          clientSecret: intent.client_secret,
        };
      }
      if (error) return { ok: false, kind: "card", code: declineCodeOf(error) };
      return { ok: false, kind: "unknown", message: "the payment has not been attempted" };
    }
    case "canceled":
      return { ok: false, kind: "card", code: "card_declined" };
    default:
      // processing, requires_confirmation, requires_capture: not paid yet, not refused.
      return { ok: false, kind: "unknown", message: `the payment is ${intent.status}` };
  }
}

/** Whether a PaymentIntent is the one asked for: never trust a reply that is not. */
export function matches(
  intent: Stripe.PaymentIntent,
  input: { customerId: string; amount: number; orderKey: string },
): boolean {
  return (
    intent?.object === "payment_intent" &&
    typeof intent.id === "string" &&
    intent.amount === input.amount &&
    intent.currency === "usd" &&
    customerIdOf(intent.customer) === input.customerId &&
    intent.metadata?.order_key === input.orderKey
  );
}

/** A customer that Stripe no longer has (deleted, or keys of another account). */
export function missingCustomer(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    error.code === "resource_missing" &&
    (error.param === "customer" || /customer/i.test(error.message))
  );
}

/** What a thrown error of the SDK means for a payment: `state.left` says whether it may have reached Stripe. */
export function failure(error: unknown, state: { left: boolean }): ProviderFailure {
  // A reply that is not what was asked for came from Stripe (or something claiming to be):
  // whatever it did is not known.
  if (error instanceof UntrustedReply) state.left = true;
  if (error instanceof Stripe.errors.StripeCardError) {
    return { ok: false, kind: "card", code: declineCodeOf(error) };
  }
  if (state.left) {
    return {
      ok: false,
      kind: "unknown",
      message: error instanceof Error ? error.message : String(error),
    };
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    return { ok: false, kind: "invalid", message: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, kind: "unavailable", message };
}
