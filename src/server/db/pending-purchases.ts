// Queries of the pending_purchases table (migration 28, decision 0077): a purchase whose provider
// answer was lost, kept until what the provider did is known. One row per account (its primary
// key), written by one INSERT ... ON CONFLICT DO NOTHING, so the claim holds across servers.
import type { Queryable } from "./db.ts";

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

type Row = {
  user_id: number | bigint;
  idempotency_key: string;
  order_key: string;
  customer_id: string;
  amount: number | bigint;
  created_at: number | bigint;
};

function fromRow(row: Row): PendingPurchase {
  return {
    userId: Number(row.user_id),
    idempotencyKey: row.idempotency_key,
    orderKey: row.order_key,
    customerId: row.customer_id,
    amount: Number(row.amount),
    createdAt: Number(row.created_at),
  };
}

export const PendingPurchases = {
  async of(q: Queryable, userId: number): Promise<PendingPurchase | null> {
    const row = await q.get<Row>("SELECT * FROM pending_purchases WHERE user_id = ?", [userId]);
    return row ? fromRow(row) : null;
  },
  /** The oldest first, at most `limit` (the reconciliation's pass). */
  async oldest(q: Queryable, limit: number): Promise<PendingPurchase[]> {
    const rows = await q.all<Row>(
      "SELECT * FROM pending_purchases ORDER BY created_at, user_id LIMIT ?",
      [limit],
    );
    return rows.map(fromRow);
  },
  /** Keeps a purchase as pending; false when the account has one already (kept as it was). */
  async claim(q: Queryable, pending: PendingPurchase): Promise<boolean> {
    const result = await q.run(
      `INSERT INTO pending_purchases
         (user_id, idempotency_key, order_key, customer_id, amount, created_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING`,
      [
        pending.userId,
        pending.idempotencyKey,
        pending.orderKey,
        pending.customerId,
        pending.amount,
        pending.createdAt,
      ],
    );
    return result.changes === 1;
  },
  /** Settled: that purchase (by its provider key) is pending no more. */
  async settle(q: Queryable, userId: number, orderKey: string): Promise<boolean> {
    const result = await q.run(
      "DELETE FROM pending_purchases WHERE user_id = ? AND order_key = ?",
      [userId, orderKey],
    );
    return result.changes === 1;
  },
};
