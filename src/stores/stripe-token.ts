// Stripe Elements' card for the checkout (card-token.ts): a PaymentMethod (pm_…) made by
// Stripe.js from inside Stripe's frame, so the card never touches our page (PCI SAQ A). The server
// saves it with a SetupIntent for off-session use and pays with PaymentIntents (decision 0037).
// Only the Stripe path loads this.
import type { ApiFailure } from "../client/client.ts";
import { apiError, cardError } from "../domain/errors/api-errors.ts";
import type { Tokenizer } from "./card-token.ts";

/** What Stripe.js reports when it cannot make a token (its StripeError, the fields we read). */
export type StripeTokenError = { type: string; code?: string };

/**
 * Stripe.js's error as a failure of our API: a refused or invalid card keeps its code when the
 * catalogue has it (expired_card, incorrect_cvc, ...) and is `card_error` otherwise, with spec
 * section 8's message either way; Stripe unreachable or failing is payment_provider_unavailable
 * (nothing was charged).
 */
function stripeTokenFailure(error: StripeTokenError): ApiFailure {
  const refused = error.type === "card_error" || error.type === "validation_error";
  const { status, body } = refused
    ? cardError(error.code ?? null)
    : apiError("payment_provider_unavailable");
  return {
    kind: "http",
    status,
    message: body.message,
    code: body.error_code,
    errorCode: error.code ?? body.error_code,
  };
}

/** What Stripe.js's createPaymentMethod answers (the fields we read). */
export type StripeTokenResult = { paymentMethod?: { id: string }; error?: StripeTokenError };

/**
 * The checkout's card maker over Stripe.js's
 * `stripe.createPaymentMethod({ type: "card", card: cardElement })`; null when the card element
 * is gone (the fields unmounted mid-payment: nothing was sent).
 */
export function stripeTokenizer(
  createPaymentMethod: (() => Promise<StripeTokenResult>) | null,
): Tokenizer {
  return async () => {
    if (createPaymentMethod === null)
      return { ok: false, error: stripeTokenFailure({ type: "api_error" }) };
    try {
      const result = await createPaymentMethod();
      if (result.paymentMethod) return { ok: true, token: result.paymentMethod.id };
      return { ok: false, error: stripeTokenFailure(result.error ?? { type: "api_error" }) };
    } catch {
      // Stripe.js rejects only when it cannot reach Stripe.
      return { ok: false, error: stripeTokenFailure({ type: "api_connection_error" }) };
    }
  };
}
