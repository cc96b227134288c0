// PayPal subscriptions that paid for nothing here (issue 21, item 4; decision 0054): one that does
// not match the order it was approved for, one approved after its approval ended (cancelled in
// the checkout, a price that changed, the account that bought something else meanwhile), a second
// subscription for an order already written, one cancelled at PayPal before it was confirmed. The
// customer is never charged for nothing: the subscription is cancelled at PayPal and each payment
// it took is refunded there (Payments v2, PayPal-Request-Id per sale, so a retry or a second
// server refunds once), each refund recorded (db/paypal-strays.ts). A stray stays "open" until
// both are done; the orphan sweep finishes what a failed call, or a payment still pending, left.
import { centsOf } from "../../domain/paypal/terms.ts";
import { DAY_MS } from "../clock.ts";
import type { AppDeps } from "../context.ts";
import { type PaypalApproval, PaypalApprovals } from "../db/paypal-approvals.ts";
import { type PaypalStray, PaypalStrays } from "../db/paypal-strays.ts";
import {
  PaypalApiError,
  type PaypalClient,
  type PaypalSubscription,
} from "../payments/paypal-client.ts";

export type StrayDeps = Pick<AppDeps, "db" | "clock" | "log"> & { paypal: PaypalClient };

export type StraySettlement = {
  /** Cancelled at PayPal and every payment refunded (or none was taken). */
  settled: boolean;
  /** Cents refunded by this call. */
  refunded: number;
  /**
   * Its approval became its order meanwhile (a confirm won the race): not a stray, nothing done.
   */
  ordered?: true;
};

/**
 * Records `sub` as a stray (closing its approval, when it still waits, in the same transaction:
 * no later confirm writes an order for it) and settles it now: cancelled, its payments refunded.
 */
export async function endStray(
  deps: StrayDeps,
  sub: Pick<PaypalSubscription, "id">,
  input: { approval: PaypalApproval | null; reason: string },
): Promise<StraySettlement> {
  const { approval } = input;
  const now = deps.clock.now();
  const opened = await deps.db.transaction(async (tx) => {
    // A waiting approval is closed first; one a confirm has just settled is not ours to end.
    if (
      approval?.state === "created" &&
      !(await PaypalApprovals.settle(tx, approval.id, "cancelled", null))
    ) {
      const settled = await PaypalApprovals.get(tx, approval.id);
      if (settled?.state === "approved") return false;
    }
    await PaypalStrays.open(tx, {
      subscriptionId: sub.id,
      approvalId: approval?.id ?? null,
      userId: approval?.userId ?? null,
      reason: input.reason,
      // Its payments: none can be older than the approval it was created for.
      since: (approval?.createdAt ?? now - 30 * DAY_MS) - DAY_MS,
      createdAt: now,
    });
    return true;
  });
  if (!opened) return { settled: false, refunded: 0, ordered: true };
  return settleStray(deps, sub.id);
}

/** Cancels a recorded stray at PayPal and refunds what it took; an open one may be asked again. */
async function settleStray(deps: StrayDeps, subscriptionId: string): Promise<StraySettlement> {
  const { db, paypal, log, clock } = deps;
  const stray = await PaypalStrays.get(db, subscriptionId);
  if (!stray) return { settled: false, refunded: 0 };
  if (stray.state === "settled") return { settled: true, refunded: 0 };
  try {
    await paypal.cancelSubscription(subscriptionId, `paid for nothing: ${stray.reason}`);
  } catch (error) {
    log.warn(`paypal: stray subscription ${subscriptionId} not cancelled yet: ${String(error)}`);
    return { settled: false, refunded: 0 };
  }
  let payments: Awaited<ReturnType<PaypalClient["listTransactions"]>>;
  try {
    payments = await paypal.listTransactions(
      subscriptionId,
      new Date(stray.since),
      new Date(clock.now() + DAY_MS),
    );
  } catch (error) {
    log.warn(`paypal: payments of stray ${subscriptionId} not read yet: ${String(error)}`);
    return { settled: false, refunded: 0 };
  }
  let refunded = 0;
  let unfinished = false;
  for (const payment of payments) {
    // A payment still pending is refunded once it completes (the next sweep, or its webhook).
    if (payment.status === "PENDING") unfinished = true;
    if (payment.status !== "COMPLETED" && payment.status !== "PARTIALLY_REFUNDED") continue;
    const done = await refundStraySale(deps, stray, {
      saleId: payment.id,
      cents: centsOf(payment.amount_with_breakdown.gross_amount.value) ?? 0,
    });
    if (done.ok) refunded += done.cents;
    else unfinished = true;
  }
  if (unfinished) return { settled: false, refunded };
  await db.transaction((tx) => PaypalStrays.settle(tx, subscriptionId, clock.now()));
  return { settled: true, refunded };
}

/**
 * Refunds one sale of a stray (all that is left of it) and records the refund; a sale whose
 * refund is recorded already is not refunded again. `ok: false` when PayPal did not refund it.
 */
export async function refundStraySale(
  deps: StrayDeps,
  stray: Pick<PaypalStray, "subscriptionId" | "reason" | "approvalId">,
  sale: { saleId: string; cents: number },
): Promise<{ ok: true; cents: number } | { ok: false }> {
  const { db, paypal, log, clock } = deps;
  if (await PaypalStrays.refundOf(db, sale.saleId)) return { ok: true, cents: 0 };
  let refund: Awaited<ReturnType<PaypalClient["refundCapture"]>>;
  try {
    refund = await paypal.refundCapture(
      sale.saleId,
      {
        note_to_payer: "Refund: this PayPal subscription paid for no order in our checkout.",
        ...(stray.approvalId ? { invoice_id: stray.approvalId } : {}),
      },
      `refund-${sale.saleId}`,
    );
  } catch (error) {
    const why =
      error instanceof PaypalApiError ? `${error.issue}: ${error.message}` : String(error);
    log.warn(`paypal: sale ${sale.saleId} of stray ${stray.subscriptionId} not refunded: ${why}`);
    return { ok: false };
  }
  if (refund.status === "FAILED" || refund.status === "CANCELLED") {
    log.warn(`paypal: PayPal's refund ${refund.id} of sale ${sale.saleId} is ${refund.status}`);
    return { ok: false };
  }
  const cents = centsOf(refund.amount?.value) ?? sale.cents;
  const fresh = await db.transaction((tx) =>
    PaypalStrays.recordRefund(tx, {
      saleId: sale.saleId,
      subscriptionId: stray.subscriptionId,
      refundId: refund.id,
      amount: cents,
      status: refund.status,
      createdAt: clock.now(),
    }),
  );
  if (fresh) {
    log.warn(
      `paypal: refunded ${cents} cents (sale ${sale.saleId}, refund ${refund.id}) of subscription ${stray.subscriptionId}, which paid for nothing here (${stray.reason})`,
    );
  }
  return { ok: true, cents: fresh ? cents : 0 };
}

/** Settles the open strays (the sweep): how many were settled and what was refunded. */
export async function settleOpenStrays(
  deps: StrayDeps,
  limit = 100,
): Promise<{ settled: number; open: number; refunded: number }> {
  const run = { settled: 0, open: 0, refunded: 0 };
  for (const stray of await PaypalStrays.unsettled(deps.db, limit)) {
    const done = await settleStray(deps, stray.subscriptionId);
    run.refunded += done.refunded;
    if (done.settled) run.settled += 1;
    else run.open += 1;
  }
  return run;
}
