// Update card on the account page (issue 34, item 3): a new card becomes the provider's token
// (card-token.ts), is saved for the account with /api/3/payment/token (a SetupIntent in Stripe
// mode, the sandbox's stand-in otherwise), through the bank's step when the bank asks for one
// (payment-outcome.ts: the same request with the same key afterwards), and every renewal from
// then on charges it. Saving charges nothing, so a fresh key per attempt is safe.
import { map } from "nanostores";
import type { ApiFailure } from "../client/client.ts";
import { endpoints } from "../contract/endpoints.ts";
import { loadPaymentMethod } from "./account-payment-method.ts";
import { api, newIdempotencyKey } from "./api.ts";
import type { Tokenizer } from "./card-token.ts";

export type CardUpdate = {
  phase: "idle" | "saving" | "saved";
  /** The refusal of the last attempt (a declined card, a failed bank step), or a pending note. */
  failure: ApiFailure | null;
};

export const $cardUpdate = map<CardUpdate>({ phase: "idle", failure: null });

export function resetCardUpdate(): void {
  $cardUpdate.set({ phase: "idle", failure: null });
}

export async function updateCard(tokenize: Tokenizer): Promise<void> {
  if ($cardUpdate.get().phase === "saving") return;
  $cardUpdate.set({ phase: "saving", failure: null });
  const token = await tokenize();
  if (!token.ok) {
    $cardUpdate.set({ phase: "idle", failure: token.error });
    return;
  }
  const key = newIdempotencyKey();
  const save = () =>
    api().call(endpoints.paymentToken, { body: { token: token.token }, idempotencyKey: key });
  let saved = await save();
  const code = saved.ok ? null : saved.error.code;
  if (code === "authentication_required" || code === "payment_pending") {
    const { settlePayment } = await import("./payment-outcome.ts");
    saved = await settlePayment(saved, save, (failure) => $cardUpdate.setKey("failure", failure));
  }
  if (!saved.ok) {
    $cardUpdate.set({ phase: "idle", failure: saved.error });
    return;
  }
  await loadPaymentMethod();
  $cardUpdate.set({ phase: "saved", failure: null });
}
