// Queries of the subscriptions table: each account's current product and order state. Kysely's
// typed builder (decision 0082).

import type { Insertable, Selectable, Updateable } from "kysely";
import type { PriceBasis } from "../../domain/renewals/price-basis.ts";
import { type Codec, columnCodec } from "./column-codec.ts";
import type { Queryable } from "./db.ts";
import type { SubscriptionsTable } from "./schema.ts";

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

/** Each field's column, and how it is stored (flags as 0/1, the price basis as JSON text). */
const columns = {
  userId: ["user_id", "as is"],
  productCode: ["product_code", "as is"],
  orderState: ["order_state", "as is"],
  prevOrderState: ["prev_order_state", "as is"],
  orderId: ["order_id", "as is"],
  orderStart: ["order_start", "as is"],
  orderEnd: ["order_end", "as is"],
  termMonths: ["term_months", "as is"],
  seats: ["seats", "as is"],
  paidCents: ["paid_cents", "as is"],
  paymentProcessor: ["payment_processor", "as is"],
  covidPromotion: ["covid_promotion", "bool"],
  expiredFlag: ["expired_flag", "bool"],
  ccRequiredForTrial: ["cc_required_for_trial", "bool"],
  upcomingPurchaseOrder: ["upcoming_purchase_order", "bool"],
  exportCredits: ["export_credits", "as is"],
  pendingProductCode: ["pending_product_code", "as is"],
  pendingSeats: ["pending_seats", "as is"],
  pendingAt: ["pending_at", "as is"],
  periodAnchor: ["period_anchor", "as is"],
  periodIndex: ["period_index", "as is"],
  recurringCampaign: ["recurring_campaign", "as is"],
  priceBasis: ["price_basis", "json"],
  updatedAt: ["updated_at", "as is"],
} as const satisfies Record<keyof Subscription, readonly [keyof SubscriptionsTable, Codec]>;

const { fromRow, toColumns } = columnCodec<Subscription>(columns);

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
    return row.user_id === null || row.user_id === undefined
      ? null
      : fromRow(row as unknown as Selectable<SubscriptionsTable>);
  },
  async get(q: Queryable, userId: number): Promise<Subscription | null> {
    const row = await q.kysely
      .selectFrom("subscriptions")
      .selectAll()
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  },
  async insert(q: Queryable, s: Subscription): Promise<void> {
    await q.kysely
      .insertInto("subscriptions")
      .values(toColumns(s, "left out") as Insertable<SubscriptionsTable>)
      .execute();
  },
  /**
   * Adds export credits in one statement that reads nothing first (the free plan's row when the
   * account has none yet), so concurrent one-off purchases of one account add up at read
   * committed without conflicting (docs/decisions/0034).
   */
  async addExportCredits(q: Queryable, userId: number, credits: number, now: number) {
    const row = toColumns(
      { ...freeSubscription(userId, now), exportCredits: credits },
      "left out",
    ) as Insertable<SubscriptionsTable>;
    await q.kysely
      .insertInto("subscriptions")
      .values(row)
      .onConflict((c) =>
        c.column("user_id").doUpdateSet((e) => ({
          export_credits: e("subscriptions.export_credits", "+", e.ref("excluded.export_credits")),
          updated_at: e.ref("excluded.updated_at"),
        })),
      )
      .execute();
  },
  async update(
    q: Queryable,
    userId: number,
    patch: Partial<Omit<Subscription, "userId">>,
  ): Promise<void> {
    const row = toColumns(patch, "null") as Updateable<SubscriptionsTable>;
    if (Object.keys(row).length === 0) return;
    await q.kysely.updateTable("subscriptions").set(row).where("user_id", "=", userId).execute();
  },
};
