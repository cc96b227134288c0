// One charge while an outcome is unknown (issue 33 item 5, docs/decisions/0077). A purchase whose
// provider answer was lost answers payment_pending and is kept in pending_purchases (one per
// account, in the database: every server sees it). Until it is settled, every other purchase of
// the account, whatever its Idempotency-Key, answers the same payment_pending with Retry-After and
// charges nothing; the pending purchase asked again with its own key asks the provider again
// (which finds its first payment). It is settled by:
//   - its own key asked again, once the provider's answer is known (an order, or a refusal);
//   - another purchase of the account, when the provider now says what became of the payment
//     (an order holds it, it was refused, or it waits for the customer's authentication);
//   - the reconciliation (services/stripe-reconcile.ts), which refunds a payment left without an
//     order after its grace time and then lets the account buy again.
import { apiError } from "../../domain/errors/api-errors.ts";
import type { Ctx } from "../context.ts";
import { Orders } from "../db/orders.ts";
import { type PendingPurchase, PendingPurchases } from "../db/pending-purchases.ts";
import type { Outcome } from "./idempotency.ts";

/** When a purchase answered payment_pending should be asked again (the Retry-After header). */
const PENDING_RETRY_AFTER_SECONDS = 5;

/** payment_pending, not kept as the key's answer, with when to ask again. */
export function pendingAnswer(ctx: Ctx): Outcome {
  ctx.addHeader("Retry-After", String(PENDING_RETRY_AFTER_SECONDS));
  const { status, body } = apiError("payment_pending");
  return { status, body, store: false };
}

/**
 * Before a purchase with `key` charges the account: the account's pending purchase when it is
 * this one (asked again), else null; or `wait` when another purchase is pending still. `pending`
 * is the account's pending purchase as read (PendingPurchases.of) after the key was claimed and,
 * for a plan, under the account's lock: the caller reads it beside its other reads, so that on
 * PostgreSQL they cost one round trip's wait, not one each (decision 0086).
 */
export async function beforeCharge(
  ctx: Ctx,
  key: string,
  pending: PendingPurchase | null,
): Promise<{ wait: true } | { wait: false; own: PendingPurchase | null }> {
  if (!pending) return { wait: false, own: null };
  if (pending.idempotencyKey === key) return { wait: false, own: pending };
  if (await settledAtProvider(ctx, pending)) return { wait: false, own: null };
  ctx.app.log.info(
    `payments: ${pending.orderKey} is pending: another purchase of account ${pending.userId} waits for it`,
  );
  return { wait: true };
}

/** Whether the provider now says what became of the pending payment (then it is settled). */
async function settledAtProvider(ctx: Ctx, pending: PendingPurchase): Promise<boolean> {
  const { db, payments, log } = ctx.app;
  let found: Awaited<ReturnType<typeof payments.findPayment>>;
  try {
    found = await payments.findPayment({
      customerId: pending.customerId,
      orderKey: pending.orderKey,
      amount: pending.amount,
    });
  } catch (error) {
    log.warn(`payments: asking about ${pending.orderKey} failed: ${String(error)}`);
    return false;
  }
  // No payment found may be a search that has not caught up yet, and unknown is unknown: only an
  // answer that says what happened settles it. A payment that succeeded without an order is its
  // key's to record, or the reconciliation's to refund.
  const settled =
    found !== null &&
    (found.ok
      ? (await Orders.byChargeRef(db, found.chargeId)) !== null
      : found.kind === "card" || found.kind === "invalid" || found.kind === "action");
  if (settled) await settle(ctx, pending);
  return settled;
}

/** Keeps a purchase whose answer was lost as the account's pending one. */
export async function keepPending(
  ctx: Ctx,
  pending: Omit<PendingPurchase, "createdAt">,
): Promise<void> {
  await ctx.app.db.transaction((tx) =>
    PendingPurchases.claim(tx, { ...pending, createdAt: ctx.now() }),
  );
}

export async function settle(ctx: Ctx, pending: PendingPurchase): Promise<void> {
  await ctx.app.db.transaction((tx) =>
    PendingPurchases.settle(tx, pending.userId, pending.orderKey),
  );
}
