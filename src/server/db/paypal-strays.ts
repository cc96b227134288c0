// PayPal subscriptions that paid for nothing here (services/paypal-strays.ts): each is "open"
// until it is cancelled at PayPal and every payment it took is refunded, then "settled". A
// refund is recorded once per PayPal sale (its id is the key), whoever makes it: the confirm
// call, a webhook or the sweep, on any server. Kysely's typed builder (decision 0082).
import type { Selectable } from "kysely";
import type { Queryable } from "./db.ts";
import type { PaypalStrayRefundsTable, PaypalStraysTable } from "./schema-payments.ts";

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

function strayOf(r: Selectable<PaypalStraysTable>): PaypalStray {
  return {
    subscriptionId: String(r.subscription_id),
    approvalId: r.approval_id ?? null,
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
    await q.kysely
      .insertInto("paypal_strays")
      .values({
        subscription_id: stray.subscriptionId,
        approval_id: stray.approvalId,
        user_id: stray.userId,
        reason: stray.reason.slice(0, 300),
        state: "open",
        since: stray.since,
        created_at: stray.createdAt,
        settled_at: null,
      })
      .onConflict((c) => c.column("subscription_id").doNothing())
      .execute();
  },
  async get(q: Queryable, subscriptionId: string): Promise<PaypalStray | null> {
    const r = await q.kysely
      .selectFrom("paypal_strays")
      .selectAll()
      .where("subscription_id", "=", subscriptionId)
      .executeTakeFirst();
    return r ? strayOf(r) : null;
  },
  /** The strays not settled yet, oldest first (the sweep finishes them). */
  async unsettled(q: Queryable, limit: number): Promise<PaypalStray[]> {
    const rows = await q.kysely
      .selectFrom("paypal_strays")
      .selectAll()
      .where("state", "=", "open")
      .orderBy("created_at")
      .limit(limit)
      .execute();
    return rows.map(strayOf);
  },
  async settle(q: Queryable, subscriptionId: string, at: number): Promise<void> {
    await q.kysely
      .updateTable("paypal_strays")
      .set({ state: "settled", settled_at: at })
      .where("subscription_id", "=", subscriptionId)
      .where("state", "=", "open")
      .execute();
  },
  /** Records PayPal's refund of a sale; false when that sale's refund was recorded already. */
  async recordRefund(q: Queryable, refund: PaypalStrayRefund): Promise<boolean> {
    const result = await q.kysely
      .insertInto("paypal_stray_refunds")
      .values({
        sale_id: refund.saleId,
        subscription_id: refund.subscriptionId,
        refund_id: refund.refundId,
        amount: refund.amount,
        status: refund.status,
        created_at: refund.createdAt,
      })
      .onConflict((c) => c.column("sale_id").doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  },
  async refundOf(q: Queryable, saleId: string): Promise<PaypalStrayRefund | null> {
    const r = await q.kysely
      .selectFrom("paypal_stray_refunds")
      .selectAll()
      .where("sale_id", "=", saleId)
      .executeTakeFirst();
    return r ? refundOf(r) : null;
  },
  async refundsOf(q: Queryable, subscriptionId: string): Promise<PaypalStrayRefund[]> {
    const rows = await q.kysely
      .selectFrom("paypal_stray_refunds")
      .selectAll()
      .where("subscription_id", "=", subscriptionId)
      .orderBy("created_at")
      .orderBy("sale_id")
      .execute();
    return rows.map(refundOf);
  },
};

function refundOf(r: Selectable<PaypalStrayRefundsTable>): PaypalStrayRefund {
  return {
    saleId: String(r.sale_id),
    subscriptionId: String(r.subscription_id),
    refundId: String(r.refund_id),
    amount: Number(r.amount),
    status: String(r.status),
    createdAt: Number(r.created_at),
  };
}
