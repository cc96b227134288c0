// A new card becomes a one-time token before anything is saved or charged: the sandbox's own
// form asks /api/3/payment/sandbox/tokens, Stripe Elements asks Stripe from inside its frame. The
// checkout (checkout.ts) only ever sees the token, so card data never reaches our upgrade call.
// Failures come back in the API's shape with the catalogue's codes (stripe-token.ts for Stripe's),
// so the payment step shows the same section-8 words whichever provider refused the card.
import type { ApiFailure } from "../client/client.ts";
import { endpoints } from "../contract/endpoints.ts";
import type { SandboxCard } from "../contract/payment.ts";
import { api } from "./api.ts";

export type CardToken = { ok: true; token: string } | { ok: false; error: ApiFailure };

/** Makes the token of the card the person typed (or says why it cannot). */
export type Tokenizer = () => Promise<CardToken>;

export function sandboxTokenizer(card: SandboxCard): Tokenizer {
  return async () => {
    const answer = await api().call(endpoints.sandboxToken, { body: card });
    return answer.ok ? { ok: true, token: answer.value.id } : answer;
  };
}
