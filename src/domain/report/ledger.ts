// The orders, items and refunds of every account, indexed for the report's questions: what each
// account's standing payments paid for at a time (decision 0075's rule, standing-payments.ts), as
// known at another time (payments and refunds recorded by then), and what each refund credited.
import {
  type PaymentFacts,
  type PaymentItem,
  type StandingUse,
  standingUse,
} from "../account/standing-payments.ts";
import { mulDivRoundHalfUp } from "../pricing/money.ts";
import type { OrderRow, RefundRow, ReportRows } from "./rows.ts";

export type Ledger = {
  orders: ReadonlyMap<string, OrderRow>;
  /** Each account's paid orders (no trials), in purchase order. */
  paidByUser: ReadonlyMap<number, readonly OrderRow[]>;
  items: ReadonlyMap<string, readonly PaymentItem[]>;
  /** Each order's refunds, oldest first, with what each credited (capped at what was left). */
  refunds: ReadonlyMap<string, readonly CreditedRefund[]>;
};

export type CreditedRefund = RefundRow & {
  /** What this refund took off its order, tax included: at most what earlier ones left. */
  credited: number;
  /** Of which tax, in proportion (as its credit note splits it). */
  creditedTax: number;
};

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function ledgerOf(rows: Pick<ReportRows, "orders" | "items" | "refunds">): Ledger {
  const orders = new Map(rows.orders.map((o) => [o.id, o]));
  const paidByUser = new Map<number, OrderRow[]>();
  for (const order of rows.orders)
    if (order.kind !== "trial") push(paidByUser, order.userId, order);
  const items = new Map<string, PaymentItem[]>();
  for (const row of rows.items) push(items, row.orderId, row.item);
  const byOrder = new Map<string, RefundRow[]>();
  for (const refund of rows.refunds) push(byOrder, refund.orderId, refund);
  const refunds = new Map<string, CreditedRefund[]>();
  for (const [orderId, list] of byOrder) {
    const order = orders.get(orderId);
    const total = order?.total ?? 0;
    let left = total;
    const sorted = [...list].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    refunds.set(
      orderId,
      sorted.map((refund) => {
        const credited = Math.max(0, Math.min(refund.amount, left));
        left -= credited;
        const tax = order?.salesTax ?? 0;
        const creditedTax =
          credited === 0 ? 0 : credited === total ? tax : mulDivRoundHalfUp(tax, credited, total);
        return { ...refund, credited, creditedTax };
      }),
    );
  }
  return { orders, paidByUser, items, refunds };
}

/** Cents credited back on an order by refunds recorded before `asOf`, tax included. */
function creditedBefore(ledger: Ledger, orderId: string, asOf: number): number {
  let sum = 0;
  for (const r of ledger.refunds.get(orderId) ?? []) if (r.createdAt < asOf) sum += r.credited;
  return sum;
}

/** An account's payments as known just before `asOf`: those made, given back by refunds made. */
function paymentsAsOf(ledger: Ledger, userId: number, asOf: number): PaymentFacts[] {
  const facts: PaymentFacts[] = [];
  for (const order of ledger.paidByUser.get(userId) ?? []) {
    if (order.createdAt >= asOf) continue;
    facts.push({
      id: order.id,
      givenBack: order.total > 0 && creditedBefore(ledger, order.id, asOf) >= order.total,
      items: ledger.items.get(order.id) ?? [],
    });
  }
  return facts;
}

export type PlanInUse = NonNullable<StandingUse["plan"]> & { termMonths: number };

/**
 * The plan an account's standing payments pay for at `at`, as known just before `asOf` (default:
 * at + 1 ms, what had happened by then), with its term (months) and its value less the net
 * (tax excluded) part of any partial refund of its payments.
 */
export function planInUse(
  ledger: Ledger,
  userId: number,
  at: number,
  asOf = at + 1,
): PlanInUse | null {
  const payments = paymentsAsOf(ledger, userId, asOf);
  const plan = standingUse(payments, at).plan;
  if (plan === null) return null;
  const order = ledger.orders.get(plan.paymentId);
  let refundedNet = 0;
  for (const payment of payments) {
    const o = ledger.orders.get(payment.id);
    if (!o || payment.givenBack) continue;
    const onPlan =
      o.id === plan.paymentId ||
      (ledger.items.get(o.id) ?? []).some(
        (i) => (i.kind === "seats" || i.kind === "essentials") && i.restsOn === plan.paymentId,
      );
    if (!onPlan) continue;
    for (const r of ledger.refunds.get(o.id) ?? [])
      if (r.createdAt < asOf) refundedNet += r.credited - r.creditedTax;
  }
  return {
    ...plan,
    value: Math.max(0, plan.value - refundedNet),
    termMonths: order?.termMonths ?? 0,
  };
}

/** The accounts with paid orders. */
export function payingUsers(ledger: Ledger): number[] {
  return [...ledger.paidByUser.keys()].sort((a, b) => a - b);
}
