// Queries of the subscriptions table: each account's current product and order state.
import type { PriceBasis } from "../../domain/renewals/price-basis.ts";
import type { Queryable } from "./db.ts";
import { mapper } from "./records.ts";

export type Subscription = {
  userId: number;
  productCode: string;
  orderState: string;
  prevOrderState: string | null;
  orderId: string | null;
  orderStart: number | null;
  orderEnd: number | null;
  termMonths: number | null;
  seats: number;
  /** What was paid for the current period, for proration. */
  paidCents: number;
  paymentProcessor: string | null;
  covidPromotion: boolean;
  expiredFlag: boolean;
  ccRequiredForTrial: boolean;
  upcomingPurchaseOrder: boolean;
  exportCredits: number;
  /** A downgrade scheduled for the end of the paid period (plan-change.ts); null when none. */
  pendingProductCode: string | null;
  pendingSeats: number | null;
  pendingAt: number | null;
  /**
   * Renewals (services/renewals.ts): period n of the running subscription ends at
   * periodEnd(periodAnchor, n, termMonths); null on rows written before anchors (order start).
   */
  periodAnchor: number | null;
  /** The index of the running period from the anchor (0 for the period bought). */
  periodIndex: number;
  /** The recurring campaign the subscription was bought under (its renewals keep the discount). */
  recurringCampaign: string | null;
  /**
   * The prices the subscription signed up at (domain/renewals/price-basis.ts), which its renewals
   * charge until a price migration moves it; null on rows from before migration 9.
   */
  priceBasis: PriceBasis | null;
  updatedAt: number;
};

const map = mapper<Subscription>("subscriptions", {
  userId: ["user_id", "int"],
  productCode: ["product_code", "text"],
  orderState: ["order_state", "text"],
  prevOrderState: ["prev_order_state", "text"],
  orderId: ["order_id", "text"],
  orderStart: ["order_start", "int"],
  orderEnd: ["order_end", "int"],
  termMonths: ["term_months", "int"],
  seats: ["seats", "int"],
  paidCents: ["paid_cents", "int"],
  paymentProcessor: ["payment_processor", "text"],
  covidPromotion: ["covid_promotion", "bool"],
  expiredFlag: ["expired_flag", "bool"],
  ccRequiredForTrial: ["cc_required_for_trial", "bool"],
  upcomingPurchaseOrder: ["upcoming_purchase_order", "bool"],
  exportCredits: ["export_credits", "int"],
  pendingProductCode: ["pending_product_code", "text"],
  pendingSeats: ["pending_seats", "int"],
  pendingAt: ["pending_at", "int"],
  periodAnchor: ["period_anchor", "int"],
  periodIndex: ["period_index", "int"],
  recurringCampaign: ["recurring_campaign", "text"],
  priceBasis: ["price_basis", "json"],
  updatedAt: ["updated_at", "int"],
});

/** The free plan, as every account starts. */
export function freeSubscription(userId: number, now: number): Subscription {
  return {
    userId,
    productCode: "wv_free",
    orderState: "unknown",
    prevOrderState: null,
    orderId: null,
    orderStart: null,
    orderEnd: null,
    termMonths: null,
    seats: 1,
    paidCents: 0,
    paymentProcessor: null,
    covidPromotion: false,
    expiredFlag: false,
    ccRequiredForTrial: false,
    upcomingPurchaseOrder: false,
    exportCredits: 0,
    pendingProductCode: null,
    pendingSeats: null,
    pendingAt: null,
    periodAnchor: null,
    periodIndex: 0,
    recurringCampaign: null,
    priceBasis: null,
    updatedAt: now,
  };
}

export const Subscriptions = {
  /** A subscription from a row that also holds other tables' columns (a join), or null. */
  fromJoinedRow(row: Record<string, unknown>): Subscription | null {
    return row.user_id === null || row.user_id === undefined ? null : map.fromRow(row);
  },
  async get(q: Queryable, userId: number): Promise<Subscription | null> {
    const row = await q.get("SELECT * FROM subscriptions WHERE user_id = ?", [userId]);
    return row ? map.fromRow(row) : null;
  },
  async insert(q: Queryable, s: Subscription): Promise<void> {
    const { sql, params } = map.insert(s);
    await q.run(sql, params);
  },
  /**
   * Adds export credits in one statement that reads nothing first (the free plan's row when the
   * account has none yet), so concurrent one-off purchases of one account add up at read
   * committed without conflicting (docs/decisions/0034).
   */
  async addExportCredits(q: Queryable, userId: number, credits: number, now: number) {
    const { sql, params } = map.insert({
      ...freeSubscription(userId, now),
      exportCredits: credits,
    });
    await q.run(
      `${sql} ON CONFLICT (user_id) DO UPDATE SET
         export_credits = subscriptions.export_credits + excluded.export_credits,
         updated_at = excluded.updated_at`,
      params,
    );
  },
  async update(
    q: Queryable,
    userId: number,
    patch: Partial<Omit<Subscription, "userId">>,
  ): Promise<void> {
    const { clause, params } = map.set(patch);
    if (clause === "") return;
    await q.run(`UPDATE subscriptions SET ${clause} WHERE user_id = ?`, [...params, userId]);
  },
};
