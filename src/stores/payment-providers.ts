// Which providers take the payment in this browser (GET /api/5/payment/providers: the sandbox's
// form or Stripe Elements for cards; the sandbox approval page, PayPal's buttons or nothing for
// PayPal). Asked once per page load, when the payment step loads: the shell never needs it, and
// the answer is the server's configuration, the same for everyone. Only the payment step imports
// this module.
import type { ApiResult } from "../client/client.ts";
import { endpoints } from "../contract/endpoints.ts";
import type { PaymentProviders } from "../contract/payment.ts";
import { api } from "./api.ts";

let request: Promise<ApiResult<PaymentProviders>> | null = null;

/** The one request of this page load: the same promise every time, so React can wait on it. */
export function paymentProviders(): Promise<ApiResult<PaymentProviders>> {
  request ??= api().call(endpoints.paymentProviders);
  return request;
}

/** Asks again on the next `paymentProviders()` (after a failure, and between tests). */
export function forgetPaymentProviders(): void {
  request = null;
}
