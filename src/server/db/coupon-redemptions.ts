// Queries of the coupon_redemptions table (migration 12; issue 18, item 5): each coupon an account
// took a discount with, once. The pricing module does not take a first-term discount again for a
// coupon listed here (src/domain/pricing/campaigns.ts, alreadyRedeemed). Kysely's typed builder
// (decision 0082).
import type { Queryable } from "./db.ts";

export const CouponRedemptions = {
  /** The coupons an account has redeemed, lower case. */
  async ofUser(q: Queryable, userId: number): Promise<string[]> {
    if (userId <= 0) return [];
    const rows = await q.kysely
      .selectFrom("coupon_redemptions")
      .select("coupon")
      .where("user_id", "=", userId)
      .orderBy("coupon")
      .execute();
    return rows.map((r) => r.coupon);
  },

  /** Records a redemption; the first one stays (same transaction as its order). */
  async record(
    q: Queryable,
    input: { userId: number; coupon: string; orderId: string; now: number },
  ): Promise<void> {
    await q.kysely
      .insertInto("coupon_redemptions")
      .values({
        user_id: input.userId,
        coupon: input.coupon.trim().toLowerCase(),
        order_id: input.orderId,
        redeemed_at: input.now,
      })
      .onConflict((c) => c.columns(["user_id", "coupon"]).doNothing())
      .execute();
  },
};
