// How the account pays, for the account page (issue 34, item 3), from GET /api/5/payment/method.
// Loaded with the account chunk, not at start-up; a plain atom (not an `operation`, whose list of
// names is in the start-up bundle): a failed read leaves the card out rather than a retry.
import { atom } from "nanostores";
import { accountEndpoints } from "../contract/account-endpoints.ts";
import type { PaymentMethod } from "../contract/payment.ts";
import { api } from "./api.ts";

export const $paymentMethod = atom<PaymentMethod | null>(null);

export async function loadPaymentMethod(): Promise<void> {
  const result = await api().call(accountEndpoints.paymentMethod);
  $paymentMethod.set(result.ok ? result.value : null);
}
