// Refunds and lost disputes (issue 20): recorded on their order, once per provider id, and a
// purchase refunded in full (or lost to a dispute) ends what it bought. What the account may use
// is then computed as always (src/domain/account/entitlements.ts) from the subscription's state:
// an ended subscription pays for nothing, for its team's members too. A partial refund is
// recorded and shown with the order (its invoice's amountRefunded), and changes nothing else.
//
// Every path that learns of a refund comes here: Stripe's webhook (charge.refunded,
// charge.dispute.closed), the support command (scripts/refund-order.ts) and the reconciliation.
import type { Queryable } from "../db/db.ts";
import { type Order, Orders } from "../db/orders.ts";
import { Events } from "../db/outbox.ts";
import { type RefundKind, Refunds } from "../db/refunds.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import { type InvoiceDeps, issueCreditNote } from "./invoices.ts";
import { refundReceiptMail } from "./receipts.ts";
import { endSubscription } from "./renewals.ts";

export type RecordedRefund =
  | { recorded: false; reason: "already_recorded" | "no_order" }
  | { recorded: true; order: Order; refundedTotal: number; ended: boolean };

/**
 * Records a refund (or a lost dispute) of an order in the caller's transaction, with the credit
 * note of its invoice and the refund's receipt (issue 23), so no refund is ever recorded without
 * its document. An order without an invoice (a trial, an order from before invoices) has no
 * credit note, but its refund still has its receipt.
 */
export async function recordRefund(
  tx: Queryable,
  refund: {
    /** The order refunded, or the provider's payment (pi_…) that paid for it. */
    orderId?: string;
    chargeRef?: string;
    /** Cents refunded. */
    amount: number;
    currency: string;
    /** The provider's refund (re_…) or dispute (dp_…) id. */
    providerRefundId: string;
    kind: RefundKind;
    provider: string;
    now: number;
  },
  invoices: InvoiceDeps,
): Promise<RecordedRefund> {
  const order = refund.orderId
    ? await Orders.byId(tx, refund.orderId)
    : refund.chargeRef
      ? await Orders.byChargeRef(tx, refund.chargeRef)
      : null;
  if (!order) return { recorded: false, reason: "no_order" };
  const inserted = await Refunds.insert(tx, {
    id: refund.providerRefundId,
    orderId: order.id,
    userId: order.userId,
    amount: refund.amount,
    currency: refund.currency.toUpperCase(),
    kind: refund.kind,
    provider: refund.provider,
    createdAt: refund.now,
  });
  if (!inserted) return { recorded: false, reason: "already_recorded" };
  const note = await issueCreditNote(
    tx,
    {
      orderId: order.id,
      amountCents: refund.amount,
      refundId: refund.providerRefundId,
      at: refund.now,
    },
    invoices,
  );
  // No credit note (no invoice to credit, or nothing of it left): the receipt goes all the same.
  if (!note) {
    const user = await Users.byId(tx, order.userId);
    if (user) {
      await invoices.mailer.queue(
        tx,
        refundReceiptMail(
          user,
          {
            orderId: order.id,
            amountCents: refund.amount,
            at: refund.now,
            processor: order.processor,
          },
          invoices.config,
        ),
      );
    }
  }
  const refundedTotal = await Refunds.totalFor(tx, order.id);
  const whole = refundedTotal >= order.total;
  let ended = false;
  if (whole) ended = await endWhatItBought(tx, order, refund.now);
  await Events.insert(tx, {
    kind: "payment",
    name:
      refund.kind === "dispute_lost" ? "dispute_lost" : whole ? "refund_full" : "refund_partial",
    userId: order.userId,
    payload: {
      orderId: order.id,
      refundId: refund.providerRefundId,
      amount: refund.amount,
      refundedTotal,
      ended,
    },
    now: refund.now,
  });
  return { recorded: true, order, refundedTotal, ended };
}

/**
 * A purchase refunded in full gives back what it bought: the subscription it pays for now ends
 * (as a lapse: the free plan, expired, its team workspace with it); a one-off export takes back
 * its credits. An order that no longer pays for anything (an earlier period, replaced since)
 * ends nothing. Returns whether something ended.
 */
async function endWhatItBought(tx: Queryable, order: Order, now: number): Promise<boolean> {
  const sub = await Subscriptions.get(tx, order.userId);
  const user = await Users.byId(tx, order.userId);
  if (!sub || !user) return false;
  if (order.kind === "one_off") {
    const credits = 1 + order.addOns.length;
    await Subscriptions.update(tx, order.userId, {
      exportCredits: Math.max(0, sub.exportCredits - credits),
      updatedAt: now,
    });
    return true;
  }
  if (order.kind !== "plan" || sub.orderId !== order.id || sub.expiredFlag) return false;
  await endSubscription(tx, user, sub, now);
  return true;
}
