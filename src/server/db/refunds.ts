// Refunds and lost disputes of orders (table `refunds`, migration 19): one row per provider
// refund or dispute id, so that the same refund reported twice (a webhook repeated, a support
// refund and its own webhook) is recorded once.
import type { Queryable } from "./db.ts";
import { mapper } from "./records.ts";

export type RefundKind = "refund" | "dispute_lost";

export type Refund = {
  /** The provider's id (re_…, dp_…, or the sandbox's). */
  id: string;
  orderId: string;
  userId: number;
  amount: number;
  currency: string;
  kind: RefundKind;
  provider: string;
  createdAt: number;
};

const map = mapper<Refund>("refunds", {
  id: ["id", "text"],
  orderId: ["order_id", "text"],
  userId: ["user_id", "int"],
  amount: ["amount", "int"],
  currency: ["currency", "text"],
  kind: ["kind", "text"],
  provider: ["provider", "text"],
  createdAt: ["created_at", "int"],
});

export const Refunds = {
  /** Records a refund; false when this provider id is recorded already. */
  async insert(q: Queryable, refund: Refund): Promise<boolean> {
    const { sql, params } = map.insert(refund);
    const result = await q.run(`${sql} ON CONFLICT (id) DO NOTHING`, params);
    return result.changes === 1;
  },
  async forOrder(q: Queryable, orderId: string): Promise<Refund[]> {
    const rows = await q.all("SELECT * FROM refunds WHERE order_id = ? ORDER BY created_at, id", [
      orderId,
    ]);
    return rows.map((row) => map.fromRow(row));
  },
  /** Cents refunded of each of these orders that has a refund. */
  async totalsFor(q: Queryable, orderIds: readonly string[]): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    if (orderIds.length === 0) return totals;
    const rows = await q.all<{ order_id: string; total: number }>(
      `SELECT order_id, SUM(amount) AS total FROM refunds WHERE order_id IN (${orderIds.map(() => "?").join(", ")}) GROUP BY order_id`,
      orderIds,
    );
    for (const row of rows) totals.set(row.order_id, Number(row.total));
    return totals;
  },
  /** Cents refunded (or lost to disputes) of an order. */
  async totalFor(q: Queryable, orderId: string): Promise<number> {
    const row = await q.get(
      "SELECT COALESCE(SUM(amount), 0) AS total FROM refunds WHERE order_id = ?",
      [orderId],
    );
    return Number(row?.total ?? 0);
  },
};
