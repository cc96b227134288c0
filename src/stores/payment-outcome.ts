// What the checkout does with a payment answer that is not final (docs/decisions/0037), loaded
// only when one arrives (the checkout's first load stays within its budget):
// - 402 authentication_required: the bank's step (payment-authentication.ts), then the same
//   request with the same key; the server writes the order only if the payment succeeded;
// - 409 payment_pending ("Your payment is being confirmed"): shown, and the same request with the
//   same key asked again a few times; the server finds the payment the first request may have
//   made instead of making another. Still pending after that, the message stays and the attempt
//   is kept (a reload resumes it with its key).
import type { ApiFailure } from "../client/client.ts";
import { authenticatePayment } from "./payment-authentication.ts";

/** How often, and how far apart, a payment being confirmed is asked about again (tests shorten it). */
export const pendingChecks = { times: 6, pauseMs: 3_000 };

type Result<T> = { ok: true; value: T } | { ok: false; error: ApiFailure };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function settlePayment<T, R extends Result<T>>(
  first: R,
  again: () => Promise<R>,
  showPending: (error: ApiFailure) => void,
): Promise<R> {
  let result = first;
  if (!result.ok && result.error.code === "authentication_required" && result.error.action) {
    if (await authenticatePayment(result.error.action)) result = await again();
  }
  for (
    let i = 0;
    i < pendingChecks.times && !result.ok && result.error.code === "payment_pending";
    i++
  ) {
    showPending(result.error);
    await pause(pendingChecks.pauseMs);
    result = await again();
  }
  return result;
}
