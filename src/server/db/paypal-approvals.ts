// Queries of the paypal_approvals table: each PayPal checkout started, from its creation to the
// buyer's approval or cancellation, with what PayPal was asked for (its Subscriptions API, or the
// sandbox's stand-in page). Kysely's typed builder (decision 0082).
import type { Selectable } from "kysely";
import type { Queryable } from "./db.ts";
import type { PaypalApprovalsTable } from "./schema-payments.ts";

export type PaypalApproval = {
  id: string;
  userId: number;
  productCode: string;
  seats: number;
  addOns: string[];
  coupon: string | null;
  total: number;
  returnUrl: string;
  /** price_changed: the sandbox's stand-in found another price at the approval (nothing paid). */
  state: "created" | "approved" | "cancelled" | "price_changed";
  orderId: string | null;
  createdAt: number;
  /**
   * What PayPal was asked for (PayPal's Subscriptions API, PAYPAL_* set): the PayPal plan, the
   * quantity, and the unit prices of the first payment and of a renewal. Null: the sandbox's
   * stand-in page.
   */
  paypal: { planId: string; quantity: number; firstUnitCents: number; unitCents: number } | null;
  /** PayPal's subscription once one was seen for this approval (its custom_id is our id). */
  subscriptionId: string | null;
};

const approvals = (q: Queryable) => q.kysely.selectFrom("paypal_approvals").selectAll();

export const PaypalApprovals = {
  async insert(q: Queryable, a: PaypalApproval): Promise<void> {
    await q.kysely
      .insertInto("paypal_approvals")
      .values({
        id: a.id,
        user_id: a.userId,
        product_code: a.productCode,
        seats: a.seats,
        add_ons: JSON.stringify(a.addOns),
        coupon: a.coupon,
        total: a.total,
        return_url: a.returnUrl,
        state: a.state,
        order_id: a.orderId,
        created_at: a.createdAt,
        plan_id: a.paypal?.planId ?? null,
        quantity: a.paypal?.quantity ?? null,
        first_unit: a.paypal?.firstUnitCents ?? null,
        unit_cents: a.paypal?.unitCents ?? null,
        subscription_id: a.subscriptionId,
      })
      .execute();
  },
  async get(q: Queryable, id: string): Promise<PaypalApproval | null> {
    const r = await approvals(q).where("id", "=", id).executeTakeFirst();
    return r ? approvalOf(r) : null;
  },
  async bySubscription(q: Queryable, subscriptionId: string): Promise<PaypalApproval | null> {
    const r = await approvals(q).where("subscription_id", "=", subscriptionId).executeTakeFirst();
    return r ? approvalOf(r) : null;
  },
  /**
   * PayPal approvals still waiting for their confirm call, created before `before`: the orphan
   * sweep asks PayPal about each (services/paypal-orphans.ts).
   */
  async waiting(
    q: Queryable,
    input: { createdBefore: number; createdAfter: number; limit: number },
  ): Promise<PaypalApproval[]> {
    const rows = await approvals(q)
      .where("state", "=", "created")
      .where("plan_id", "is not", null)
      .where("created_at", "<", input.createdBefore)
      .where("created_at", ">=", input.createdAfter)
      .orderBy("created_at")
      .limit(input.limit)
      .execute();
    return rows.map(approvalOf);
  },
  /** Records PayPal's subscription for an approval (once; a second id for it is refused). */
  async linkSubscription(q: Queryable, id: string, subscriptionId: string): Promise<boolean> {
    const r = await q.kysely
      .updateTable("paypal_approvals")
      .set({ subscription_id: subscriptionId })
      .where("id", "=", id)
      .where((w) =>
        w.or([w("subscription_id", "is", null), w("subscription_id", "=", subscriptionId)]),
      )
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },
  /** Moves a created approval to approved or cancelled; false when it was settled already. */
  async settle(
    q: Queryable,
    id: string,
    state: "approved" | "cancelled" | "price_changed",
    orderId: string | null,
  ): Promise<boolean> {
    const r = await q.kysely
      .updateTable("paypal_approvals")
      .set({ state, order_id: orderId })
      .where("id", "=", id)
      .where("state", "=", "created")
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },
};

function approvalOf(r: Selectable<PaypalApprovalsTable>): PaypalApproval {
  return {
    id: r.id,
    userId: r.user_id,
    productCode: r.product_code,
    seats: r.seats,
    addOns: JSON.parse(r.add_ons) as string[],
    coupon: r.coupon,
    total: r.total,
    returnUrl: r.return_url,
    state: r.state as PaypalApproval["state"],
    orderId: r.order_id,
    createdAt: r.created_at,
    paypal:
      r.plan_id === null
        ? null
        : {
            planId: r.plan_id,
            quantity: Number(r.quantity),
            firstUnitCents: Number(r.first_unit),
            unitCents: Number(r.unit_cents),
          },
    subscriptionId: r.subscription_id,
  };
}
