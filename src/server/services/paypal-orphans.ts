// The orphan sweep (issue 21, item 4): a subscription approved at PayPal whose confirm call never
// arrived (a closed tab, a lost network, PayPal's onApprove not firing) must end as the order it
// was for, or cancelled at PayPal: never a payment without access. The ACTIVATED webhook confirms
// most of them (services/paypal-webhooks.ts); this sweep asks PayPal about every approval still
// waiting whose subscription is known (from the CREATED webhook, the browser's report right
// after createSubscription, or a confirm call that found it pending) and confirms it the same
// way. A subscription that paid for nothing (services/paypal-strays.ts) and is not yet cancelled
// and refunded is settled here too, and a refund or reversal kept until its sale is known
// (decision 0076) is applied once it is. Runs every few minutes on each server; confirms are
// idempotent per order key, refunds per sale.

import { DAY_MS } from "../clock.ts";
import { PaypalApprovals } from "../db/paypal-approvals.ts";
import { applyKeptEvents } from "./paypal-money-back.ts";
import { settleOpenStrays } from "./paypal-strays.ts";
import { type ConfirmResult, confirmApproval, type PaypalDeps } from "./paypal-subscriptions.ts";

export type SweepRun = {
  ordered: number;
  refused: number;
  pending: number;
  failed: number;
  /** Strays cancelled and refunded in full by this run; strays still open after it. */
  straysSettled: number;
  straysOpen: number;
  /** Cents refunded by this run. */
  refunded: number;
  /** Kept events (decision 0076) applied by this run; kept events still waiting after it. */
  keptApplied: number;
  keptWaiting: number;
};

/** Approvals are left this long for their own confirm call before the sweep looks. */
export const ORPHAN_AFTER_MS = 10 * 60_000;
/** PayPal drops an approval not completed within days; older ones are not asked about. */
const WINDOW_MS = 14 * DAY_MS;

export async function sweepPaypalOrphans(deps: PaypalDeps): Promise<SweepRun> {
  const run: SweepRun = {
    ordered: 0,
    refused: 0,
    pending: 0,
    failed: 0,
    straysSettled: 0,
    straysOpen: 0,
    refunded: 0,
    keptApplied: 0,
    keptWaiting: 0,
  };
  const now = deps.clock.now();
  const waiting = await PaypalApprovals.waiting(deps.db, {
    createdBefore: now - ORPHAN_AFTER_MS,
    createdAfter: now - WINDOW_MS,
    limit: 200,
  });
  for (const approval of waiting) {
    if (approval.subscriptionId === null) continue;
    let result: ConfirmResult;
    try {
      result = await confirmApproval(deps, approval.id, approval.subscriptionId, null);
    } catch (error) {
      deps.log.warn(`paypal sweep: ${approval.id} failed: ${String(error)}`);
      run.failed += 1;
      continue;
    }
    if (result.kind === "ordered") run.ordered += 1;
    else if (result.kind === "refused" || result.kind === "not_found") run.refused += 1;
    else if (result.kind === "pending") run.pending += 1;
    else run.failed += 1;
  }
  // After the confirms: a refused one has just opened its stray, settled or left open there.
  const strays = await settleOpenStrays(deps);
  run.straysSettled = strays.settled;
  run.straysOpen = strays.open;
  run.refunded = strays.refunded;
  const kept = await applyKeptEvents(deps);
  run.keptApplied = kept.applied;
  run.keptWaiting = kept.kept;
  if (kept.kept > 0)
    deps.log.warn(`paypal sweep: ${kept.kept} refund or reversal event(s) wait for their sale`);
  if (run.ordered + run.refused + strays.settled + strays.open > 0)
    deps.log.info(
      `paypal sweep: ${run.ordered} orphan(s) ordered, ${run.refused} refused; ${strays.settled} stray(s) settled (${strays.refunded} cents refunded), ${strays.open} still open`,
    );
  return run;
}
