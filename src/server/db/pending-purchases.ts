// Queries of the pending_purchases table (migration 28, decision 0077): a purchase whose provider
// answer was lost, kept until what the provider did is known. One row per account (its primary
// key), written by one INSERT ... ON CONFLICT DO NOTHING, so the claim holds across servers.
// Kysely's typed builder (decision 0082).
import type { Selectable } from "kysely";
import type { Queryable } from "./db.ts";
import type { PendingPurchasesTable } from "./schema-payments.ts";

export type PendingPurchase = {
  userId: number;
  /** The Idempotency-Key of the purchase: a retry with it asks the provider again. */
  idempotencyKey: string;
  /** The provider's key of its payment (`order:<user>:<key>`). */
  orderKey: string;
  customerId: string;
  amount: number;
  createdAt: number;
};

function fromRow(row: Selectable<PendingPurchasesTable>): PendingPurchase {
  return {
    userId: row.user_id,
    idempotencyKey: row.idempotency_key,
    orderKey: row.order_key,
    customerId: row.customer_id,
    amount: row.amount,
    createdAt: row.created_at,
  };
}

const pending = (q: Queryable) => q.kysely.selectFrom("pending_purchases").selectAll();

export const PendingPurchases = {
  async of(q: Queryable, userId: number): Promise<PendingPurchase | null> {
    const row = await pending(q).where("user_id", "=", userId).executeTakeFirst();
    return row ? fromRow(row) : null;
  },
  /** The oldest first, at most `limit` (the reconciliation's pass). */
  async oldest(q: Queryable, limit: number): Promise<PendingPurchase[]> {
    const rows = await pending(q).orderBy("created_at").orderBy("user_id").limit(limit).execute();
    return rows.map(fromRow);
  },
  /** Keeps a purchase as pending; false when the account has one already (kept as it was). */
  async claim(q: Queryable, p: PendingPurchase): Promise<boolean> {
    const result = await q.kysely
      .insertInto("pending_purchases")
      .values({
        user_id: p.userId,
        idempotency_key: p.idempotencyKey,
        order_key: p.orderKey,
        customer_id: p.customerId,
        amount: p.amount,
        created_at: p.createdAt,
      })
      .onConflict((c) => c.column("user_id").doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  },
  /** Settled: that purchase (by its provider key) is pending no more. */
  async settle(q: Queryable, userId: number, orderKey: string): Promise<boolean> {
    const result = await q.kysely
      .deleteFrom("pending_purchases")
      .where("user_id", "=", userId)
      .where("order_key", "=", orderKey)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },
};
