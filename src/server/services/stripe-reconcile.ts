// The reconciliation of Stripe's payments with our orders (issue 20, docs/decisions/0037): what
// an unknown outcome left behind is settled here, and every action is logged.
//   - A purchase payment that succeeded with no order: the customer's retry with the same key
//     records it (it finds the payment); once `graceMs` has passed without one, it is refunded
//     (an order is only ever written by the purchase, which alone knows what was bought and at
//     which price). Renewal payments are the renewal worker's: its next attempt with the same key
//     finds the payment and records the period; they are reported, not refunded, unless the
//     worker found the payment made after its period stopped being due (decision 0070): then
//     refunded at once.
//   - A purchase left pending (payment_pending, decision 0077) is settled once Stripe says what
//     became of its payment, so that its account may buy again.
//   - An order whose payment is not a succeeded payment of its amount: reported for support
//     (refunding or ending it is a person's decision), never changed silently.
// Every server with PAYMENTS=stripe runs it every RECONCILE_INTERVAL_SECONDS (reconcile-schedule.ts),
// and `npm run reconcile-payments` runs it by hand (scripts/stripe-support.ts); it is safe to run
// again and on several servers (refunds carry an idempotency key per payment, and a payment
// refunded already is left alone).
import type Stripe from "stripe";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/db.ts";
import { Orders } from "../db/orders.ts";
import { PendingPurchases } from "../db/pending-purchases.ts";
import { Refunds } from "../db/refunds.ts";
import { Renewals } from "../db/renewals.ts";
import type { Logger } from "../log.ts";
import type { InvoiceDeps } from "./invoices.ts";
import { recordRefund } from "./refunds.ts";

export type ReconcileReport = {
  checked: number;
  refunded: string[];
  waiting: string[];
  renewalsWithoutOrder: string[];
  ordersWithoutCharge: string[];
};

export async function reconcileStripe(
  deps: InvoiceDeps & { db: Db; stripe: Stripe; log: Logger; clock: Clock },
  options: { sinceMs: number; graceMs?: number },
): Promise<ReconcileReport> {
  const { db, stripe, log, clock } = deps;
  const graceMs = options.graceMs ?? 60 * 60_000;
  const now = clock.now();
  const report: ReconcileReport = {
    checked: 0,
    refunded: [],
    waiting: [],
    renewalsWithoutOrder: [],
    ordersWithoutCharge: [],
  };
  const seen = new Map<string, Stripe.PaymentIntent>();
  for await (const intent of stripe.paymentIntents.list({
    created: { gte: Math.floor(options.sinceMs / 1000) },
    limit: 100,
    // Its charge, to see a refund made already (a refund leaves the intent `succeeded`).
    expand: ["data.latest_charge"],
  })) {
    seen.set(intent.id, intent);
    const orderKey = intent.metadata?.order_key;
    if (!orderKey || intent.status !== "succeeded") continue;
    report.checked += 1;
    if (await Orders.byChargeRef(db, intent.id)) continue;
    // A renewal payment the customer confirmed after its period stopped being due (the worker
    // found it so when cancelling it, decision 0070): no order will ever pay for it, refunded as
    // a purchase payment without an order is, at once.
    const renewalId = orderKey.startsWith("renewal:") ? orderKey.split(":")[1] : null;
    const renewal = renewalId ? await Renewals.byId(db, renewalId) : null;
    const notDue = renewal?.paymentKey === orderKey && renewal.paymentRetired === "paid";
    if (renewalId && !notDue) {
      report.renewalsWithoutOrder.push(intent.id);
      log.warn(
        `reconcile: renewal payment ${intent.id} (${orderKey}) has no order yet: the renewal worker records it on its next attempt`,
      );
      continue;
    }
    // Refunded already (an earlier pass, another server, the dashboard): nothing left to do, and
    // not reported again at every pass of the 48 hours it stays in the window.
    const charge = typeof intent.latest_charge === "object" ? intent.latest_charge : null;
    if (charge?.refunded) continue;
    if (!notDue && now - intent.created * 1000 < graceMs) {
      report.waiting.push(intent.id);
      log.info(`reconcile: payment ${intent.id} (${orderKey}) has no order yet; left to its retry`);
      continue;
    }
    let refund: Stripe.Refund;
    try {
      refund = await stripe.refunds.create(
        {
          payment_intent: intent.id,
          metadata: { reason: notDue ? "renewal_not_due" : "no_order", order_key: orderKey },
        },
        { idempotencyKey: `reconcile:refund:${intent.id}` },
      );
    } catch (error) {
      // Refunded already (by an earlier pass whose idempotency key Stripe has since forgotten,
      // another server, or the dashboard): nothing left to do. Any other failure is logged and
      // the next pass tries again; the rest of this pass goes on.
      const code = (error as { code?: string }).code;
      if (code === "charge_already_refunded") {
        log.info(`reconcile: payment ${intent.id} (${orderKey}) had no order and is refunded`);
      } else {
        log.error(
          `reconcile: payment ${intent.id} (${orderKey}) has no order and could not be refunded: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      continue;
    }
    report.refunded.push(intent.id);
    log.warn(
      `reconcile: payment ${intent.id} (${orderKey}, ${intent.amount} cents) had no order: refunded (${refund.id})`,
    );
  }
  await settlePending(deps, { seen, refunded: new Set(report.refunded), graceMs, now });
  for (const order of await Orders.cardOrdersSince(db, options.sinceMs)) {
    const ref = order.chargeRef as string;
    if (!ref.startsWith("pi_")) continue;
    let intent = seen.get(ref);
    if (!intent) {
      try {
        intent = await stripe.paymentIntents.retrieve(ref);
      } catch {
        intent = undefined;
      }
    }
    if (intent?.status === "succeeded" && intent.amount === order.total) continue;
    report.ordersWithoutCharge.push(order.id);
    // Refunding or ending it is a person's decision: one line per order, every pass, until then.
    log.error(
      `reconcile: SUPPORT order ${order.id} of account ${order.userId} (${order.total} cents) has no succeeded payment of its amount (${ref}: ${intent ? `${intent.status}, ${intent.amount} cents` : "not found at Stripe"}): check it in Stripe's dashboard, then refund it (npm run refund-order) or leave it`,
    );
  }
  log.info(
    `reconcile: ${report.checked} payments checked, ${report.refunded.length} refunded, ${report.waiting.length} waiting, ${report.renewalsWithoutOrder.length} renewals without order, ${report.ordersWithoutCharge.length} orders without charge`,
  );
  return report;
}

/** How many pending purchases one pass looks at (the oldest first). */
const PENDING_PER_PASS = 500;

/**
 * Purchases left pending (their answer lost, decision 0077) are settled once what Stripe did is
 * known, so that their accounts may buy again: a payment that an order holds or that is refunded
 * (by this pass, after its grace time), a payment that charged nothing (refused, cancelled,
 * waiting for the customer's step), or none at all once the grace time has passed (the request
 * never reached Stripe). A payment that succeeded without an order stays pending until then.
 */
async function settlePending(
  deps: { db: Db; log: Logger },
  pass: {
    seen: Map<string, Stripe.PaymentIntent>;
    refunded: Set<string>;
    graceMs: number;
    now: number;
  },
): Promise<void> {
  const { db, log } = deps;
  const byOrderKey = new Map<string, Stripe.PaymentIntent>();
  for (const intent of pass.seen.values()) {
    const orderKey = intent.metadata?.order_key;
    if (orderKey) byOrderKey.set(orderKey, intent);
  }
  for (const pending of await PendingPurchases.oldest(db, PENDING_PER_PASS)) {
    const intent = byOrderKey.get(pending.orderKey);
    let settled: boolean;
    if (!intent) settled = pass.now - pending.createdAt >= pass.graceMs;
    else if (intent.status === "processing") settled = false;
    else if (intent.status !== "succeeded") settled = true;
    else {
      const charge = typeof intent.latest_charge === "object" ? intent.latest_charge : null;
      settled =
        pass.refunded.has(intent.id) ||
        charge?.refunded === true ||
        (await Orders.byChargeRef(db, intent.id)) !== null;
    }
    if (!settled) continue;
    await db.transaction((tx) => PendingPurchases.settle(tx, pending.userId, pending.orderKey));
    log.info(
      `reconcile: purchase ${pending.orderKey} is no longer pending (${intent ? `${intent.id} ${intent.status}` : "no payment at Stripe"})`,
    );
  }
}

/**
 * Refunds an order for support (`npm run refund-order`), through the same path as a refund made
 * in Stripe's dashboard: Stripe refunds, then the refund is recorded on the order (recordRefund),
 * ending what it bought when the whole amount is refunded. Stripe's charge.refunded webhook finds
 * it recorded already (one row per refund id).
 */
export async function refundStripeOrder(
  deps: InvoiceDeps & { db: Db; stripe: Stripe; log: Logger; clock: Clock },
  input: { orderId: string; amount?: number },
): Promise<{ refundId: string; amount: number; ended: boolean }> {
  const { db, stripe, log, clock } = deps;
  const order = await Orders.byId(db, input.orderId);
  if (!order) throw new Error(`There is no order ${input.orderId}.`);
  if (!order.chargeRef?.startsWith("pi_")) {
    throw new Error(
      `Order ${order.id} was not paid through a Stripe payment (${order.chargeRef ?? "no charge"}).`,
    );
  }
  const already = await Refunds.totalFor(db, order.id);
  const amount = input.amount ?? order.total - already;
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > order.total - already) {
    throw new Error(
      `Order ${order.id}: ${order.total - already} of ${order.total} cents can be refunded; ${amount} asked.`,
    );
  }
  const refund = await stripe.refunds.create(
    { payment_intent: order.chargeRef, amount, metadata: { order_id: order.id, by: "support" } },
    { idempotencyKey: `support-refund:${order.id}:${already}:${amount}` },
  );
  const recorded = await db.transaction((tx) =>
    recordRefund(
      tx,
      {
        orderId: order.id,
        amount: refund.amount,
        currency: refund.currency,
        providerRefundId: refund.id,
        kind: "refund",
        provider: "stripe",
        now: clock.now(),
      },
      deps,
    ),
  );
  const ended = recorded.recorded && recorded.ended;
  log.info(
    `refund: order ${order.id} refunded ${refund.amount} cents (${refund.id})${ended ? "; what it bought has ended" : ""}`,
  );
  return { refundId: refund.id, amount: refund.amount, ended };
}
