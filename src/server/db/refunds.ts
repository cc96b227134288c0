// Refunds and lost disputes of orders (table `refunds`, migration 19): one row per provider
// refund or dispute id, so that the same refund reported twice (a webhook repeated, a support
// refund and its own webhook) is recorded once. Kysely's typed builder (decision 0082).
import type { Selectable } from "kysely";
import type { Queryable } from "./db.ts";
import type { RefundsTable } from "./schema-payments.ts";

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

function fromRow(r: Selectable<RefundsTable>): Refund {
  return {
    id: r.id,
    orderId: r.order_id,
    userId: r.user_id,
    amount: r.amount,
    currency: r.currency,
    kind: r.kind as RefundKind,
    provider: r.provider,
    createdAt: r.created_at,
  };
}

export const Refunds = {
  /** Records a refund; false when this provider id is recorded already. */
  async insert(q: Queryable, refund: Refund): Promise<boolean> {
    const result = await q.kysely
      .insertInto("refunds")
      .values({
        id: refund.id,
        order_id: refund.orderId,
        user_id: refund.userId,
        amount: refund.amount,
        currency: refund.currency,
        kind: refund.kind,
        provider: refund.provider,
        created_at: refund.createdAt,
      })
      .onConflict((c) => c.column("id").doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  },
  async forOrder(q: Queryable, orderId: string): Promise<Refund[]> {
    const rows = await q.kysely
      .selectFrom("refunds")
      .selectAll()
      .where("order_id", "=", orderId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    return rows.map(fromRow);
  },
  /** Cents refunded of each of these orders that has a refund. */
  async totalsFor(q: Queryable, orderIds: readonly string[]): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    if (orderIds.length === 0) return totals;
    const rows = await q.kysely
      .selectFrom("refunds")
      .select((e) => ["order_id", e.fn.sum<number>("amount").as("total")])
      .where("order_id", "in", orderIds)
      .groupBy("order_id")
      .execute();
    for (const row of rows) totals.set(row.order_id, Number(row.total));
    return totals;
  },
  /** Cents refunded (or lost to disputes) of an order. */
  async totalFor(q: Queryable, orderId: string): Promise<number> {
    const row = await q.kysely
      .selectFrom("refunds")
      .select((e) => e.fn.coalesce(e.fn.sum<number>("amount"), e.lit(0)).as("total"))
      .where("order_id", "=", orderId)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  },
};
