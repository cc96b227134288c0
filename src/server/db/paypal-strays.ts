// PayPal subscriptions that paid for nothing here (services/paypal-strays.ts): each is "open"
// until it is cancelled at PayPal and every payment it took is refunded, then "settled". A
// refund is recorded once per PayPal sale (its id is the key), whoever makes it: the confirm
// call, a webhook or the sweep, on any server.
import type { Queryable } from "./db.ts";

export type PaypalStray = {
  subscriptionId: string;
  approvalId: string | null;
  userId: number | null;
  reason: string;
  state: "open" | "settled";
  /** Payments from this time on are this subscription's (its approval's creation, less a day). */
  since: number;
  createdAt: number;
  settledAt: number | null;
};

export type PaypalStrayRefund = {
  saleId: string;
  subscriptionId: string;
  refundId: string;
  amount: number;
  status: string;
  createdAt: number;
};

function strayOf(r: Record<string, unknown>): PaypalStray {
  return {
    subscriptionId: String(r.subscription_id),
    approvalId: (r.approval_id as string | null) ?? null,
    userId: r.user_id === null || r.user_id === undefined ? null : Number(r.user_id),
    reason: String(r.reason),
    state: r.state === "settled" ? "settled" : "open",
    since: Number(r.since),
    createdAt: Number(r.created_at),
    settledAt: r.settled_at === null || r.settled_at === undefined ? null : Number(r.settled_at),
  };
}

export const PaypalStrays = {
  /** Records a stray; one already recorded keeps its first reason. */
  async open(q: Queryable, stray: Omit<PaypalStray, "state" | "settledAt">): Promise<void> {
    await q.run(
      `INSERT INTO paypal_strays (subscription_id, approval_id, user_id, reason, state, since, created_at, settled_at)
       VALUES (?, ?, ?, ?, 'open', ?, ?, NULL) ON CONFLICT (subscription_id) DO NOTHING`,
      [
        stray.subscriptionId,
        stray.approvalId,
        stray.userId,
        stray.reason.slice(0, 300),
        stray.since,
        stray.createdAt,
      ],
    );
  },
  async get(q: Queryable, subscriptionId: string): Promise<PaypalStray | null> {
    const r = await q.get<Record<string, unknown>>(
      "SELECT * FROM paypal_strays WHERE subscription_id = ?",
      [subscriptionId],
    );
    return r ? strayOf(r) : null;
  },
  /** The strays not settled yet, oldest first (the sweep finishes them). */
  async unsettled(q: Queryable, limit: number): Promise<PaypalStray[]> {
    const rows = await q.all<Record<string, unknown>>(
      "SELECT * FROM paypal_strays WHERE state = 'open' ORDER BY created_at LIMIT ?",
      [limit],
    );
    return rows.map(strayOf);
  },
  async settle(q: Queryable, subscriptionId: string, at: number): Promise<void> {
    await q.run(
      "UPDATE paypal_strays SET state = 'settled', settled_at = ? WHERE subscription_id = ? AND state = 'open'",
      [at, subscriptionId],
    );
  },
  /** Records PayPal's refund of a sale; false when that sale's refund was recorded already. */
  async recordRefund(q: Queryable, refund: PaypalStrayRefund): Promise<boolean> {
    const result = await q.run(
      `INSERT INTO paypal_stray_refunds (sale_id, subscription_id, refund_id, amount, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (sale_id) DO NOTHING`,
      [
        refund.saleId,
        refund.subscriptionId,
        refund.refundId,
        refund.amount,
        refund.status,
        refund.createdAt,
      ],
    );
    return result.changes === 1;
  },
  async refundOf(q: Queryable, saleId: string): Promise<PaypalStrayRefund | null> {
    const r = await q.get<Record<string, unknown>>(
      "SELECT * FROM paypal_stray_refunds WHERE sale_id = ?",
      [saleId],
    );
    return r ? refundOf(r) : null;
  },
  async refundsOf(q: Queryable, subscriptionId: string): Promise<PaypalStrayRefund[]> {
    const rows = await q.all<Record<string, unknown>>(
      "SELECT * FROM paypal_stray_refunds WHERE subscription_id = ? ORDER BY created_at, sale_id",
      [subscriptionId],
    );
    return rows.map(refundOf);
  },
};

function refundOf(r: Record<string, unknown>): PaypalStrayRefund {
  return {
    saleId: String(r.sale_id),
    subscriptionId: String(r.subscription_id),
    refundId: String(r.refund_id),
    amount: Number(r.amount),
    status: String(r.status),
    createdAt: Number(r.created_at),
  };
}
