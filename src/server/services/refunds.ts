// Refunds and lost disputes (issue 20): recorded on their order, once per provider id. A payment
// refunded in full (or lost to a dispute) takes back exactly what it paid for, and what rested on
// it (issue 33 item 1, docs/decisions/0075-refunds-take-back-what-their-payment-bought.md): the
// account's payments and their items (db/order-items.ts) say what the standing ones pay for now
// (src/domain/account/standing-payments.ts), and the subscription is brought in line with that,
// so that `entitlementsOf` (src/domain/account/entitlements.ts) gives the owner and every team
// member what is still paid for. A partial refund is recorded and shown with the order (its
// invoice's amountRefunded), and changes nothing else.
//
// Every path that learns of a refund comes here: Stripe's webhook (charge.refunded,
// charge.dispute.closed), PayPal's (PAYMENT.SALE.REFUNDED, REVERSED), the support command
// (`npm run refund-order`, scripts/stripe-support.ts) and the reconciliation.
import {
  type PaymentFacts,
  type StandingUse,
  standingOf,
  standingUse,
} from "../../domain/account/standing-payments.ts";
import type { Queryable } from "../db/db.ts";
import { Instances } from "../db/instances.ts";
import { OrderItems } from "../db/order-items.ts";
import { type Order, Orders } from "../db/orders.ts";
import { Events } from "../db/outbox.ts";
import { type RefundKind, Refunds } from "../db/refunds.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import { type InvoiceDeps, issueCreditNote } from "./invoices.ts";
import { ownedInstance } from "./paid-renewal.ts";
import { refundReceiptMail } from "./receipts.ts";
import { endSubscription } from "./subscription-end.ts";

export type RecordedRefund =
  | { recorded: false; reason: "already_recorded" | "no_order" }
  | {
      recorded: true;
      order: Order;
      refundedTotal: number;
      /** Something it bought was taken back (a plan, seats, an add-on, export credits). */
      ended: boolean;
      /** Orders that fell with it (they rested on it): what they cost is owed back (0075). */
      fell: string[];
    };

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
  const { ended, fell } = whole
    ? await takeBackWhatItBought(tx, order, refund.now)
    : { ended: false, fell: [] };
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
      fell,
    },
    now: refund.now,
  });
  return { recorded: true, order, refundedTotal, ended, fell };
}

/** What a refund does to the plan in use: nothing, fewer seats or no essentials, an earlier
 * plan back for the rest of its own period, or no plan at all. */
export type PlanChange = "unchanged" | "reduced" | "replaced" | "ended";

function planChange(before: StandingUse["plan"], after: StandingUse["plan"]): PlanChange {
  if (before === null) return "unchanged";
  if (after === null) return "ended";
  if (after.paymentId !== before.paymentId) return "replaced";
  return after.seats === before.seats && after.productCode === before.productCode
    ? "unchanged"
    : "reduced";
}

/** The payments as they were before `orderId` was given back. */
const notGivenBack = (payments: readonly PaymentFacts[], orderId: string): PaymentFacts[] =>
  payments.map((p) => (p.id === orderId ? { ...p, givenBack: false } : p));

/**
 * What refunding `cents` more of an order would do to the plan in use: PayPal's path asks before
 * it records the refund, to cancel the subscription at PayPal first when the plan it bills ends
 * or is replaced.
 */
export async function planChangeOfRefund(
  q: Queryable,
  order: Order,
  cents: number,
  now: number,
): Promise<PlanChange> {
  const [payments, refunded] = await Promise.all([
    OrderItems.paymentsOf(q, order.userId),
    Refunds.totalFor(q, order.id),
  ]);
  if (order.total <= 0 || refunded + cents < order.total) return "unchanged";
  const before = notGivenBack(payments, order.id);
  const after = before.map((p) => (p.id === order.id ? { ...p, givenBack: true } : p));
  return planChange(standingUse(before, now).plan, standingUse(after, now).plan);
}

/**
 * A payment given back in full takes back what it bought, and what rested on it (decision 0075):
 * its export credits and those of the payments that fell with it; the plan in use becomes what
 * the standing payments pay for now: fewer seats (an addition refunded), the earlier plan for the
 * rest of its own period, without renewing (a later plan refunded), or nothing (a lapse: the free
 * plan, expired, its team workspace with it). A payment that fell with it (a seat added to it, a
 * later plan paid partly with its credit) is flagged for the team (event payment_fell): what the
 * customer paid for it is owed back to them. Returns whether something was taken back, and the
 * orders that fell with it.
 */
async function takeBackWhatItBought(
  tx: Queryable,
  order: Order,
  now: number,
): Promise<{ ended: boolean; fell: string[] }> {
  const [sub, user, payments] = await Promise.all([
    Subscriptions.get(tx, order.userId),
    Users.byId(tx, order.userId),
    OrderItems.paymentsOf(tx, order.userId),
  ]);
  if (!sub || !user) return { ended: false, fell: [] };
  const previously = notGivenBack(payments, order.id);
  const stoodBefore = standingOf(previously);
  const standsNow = standingOf(payments);
  const lost = payments.filter(
    (p) => stoodBefore.get(p.id) === "stands" && standsNow.get(p.id) !== "stands",
  );
  if (lost.length === 0) return { ended: false, fell: [] };
  const credits = lost
    .flatMap((p) => p.items)
    .reduce((n, item) => n + (item.kind === "exportCredits" ? item.credits : 0), 0);
  const before = standingUse(previously, now).plan;
  const after = standingUse(payments, now).plan;
  const change = sub.expiredFlag ? "unchanged" : planChange(before, after);
  const exportCredits = Math.max(0, sub.exportCredits - credits);
  const fell = lost.filter((p) => p.id !== order.id).map((p) => p.id);
  for (const id of fell) {
    await Events.insert(tx, {
      kind: "payment",
      name: "payment_fell",
      userId: order.userId,
      payload: { orderId: id, restedOn: order.id },
      now,
    });
  }
  if (change === "ended") {
    if (credits > 0)
      await Subscriptions.update(tx, order.userId, { exportCredits, updatedAt: now });
    await endSubscription(tx, user, { ...sub, exportCredits }, now);
    return { ended: true, fell };
  }
  if (change === "unchanged" || after === null) {
    if (credits > 0)
      await Subscriptions.update(tx, order.userId, { exportCredits, updatedAt: now });
    return { ended: true, fell };
  }
  if (change === "reduced") {
    await Subscriptions.update(tx, order.userId, {
      productCode: after.productCode,
      seats: after.seats,
      paidCents: after.value,
      exportCredits,
      // A change scheduled for the period end stays, with no more seats than are paid for now.
      ...(sub.pendingSeats !== null && sub.pendingSeats > after.seats
        ? { pendingSeats: after.seats }
        : {}),
      updatedAt: now,
    });
  } else {
    // An earlier plan back for the rest of its own period: it was replaced, so it does not renew.
    const earlier = await Orders.byId(tx, after.paymentId);
    await Subscriptions.update(tx, order.userId, {
      productCode: after.productCode,
      seats: after.seats,
      paidCents: after.value,
      exportCredits,
      orderId: after.paymentId,
      orderState: "cancelled",
      prevOrderState: sub.orderState,
      orderStart: after.periodStart,
      orderEnd: after.periodEnd,
      periodAnchor: after.periodStart,
      periodIndex: 0,
      termMonths: earlier?.termMonths ?? sub.termMonths,
      paymentProcessor: earlier?.processor ?? sub.paymentProcessor,
      // A change scheduled for the period end was planned for the plan that is gone.
      pendingProductCode: null,
      pendingSeats: null,
      pendingAt: null,
      updatedAt: now,
    });
  }
  const owned = await ownedInstance(tx, user);
  if (owned !== null) {
    await Instances.update(tx, owned.id, { productCode: after.productCode, maxSeats: after.seats });
  }
  return { ended: true, fell };
}
