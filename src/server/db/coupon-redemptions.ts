// Queries of the coupon_redemptions table (migration 12; issue 18, item 5): each coupon an account
// took a discount with, once. The pricing module does not take a first-term discount again for a
// coupon listed here (src/domain/pricing/campaigns.ts, alreadyRedeemed).
import type { Queryable } from "./db.ts";

export const CouponRedemptions = {
  /** The coupons an account has redeemed, lower case. */
  async ofUser(q: Queryable, userId: number): Promise<string[]> {
    if (userId <= 0) return [];
    const rows = await q.all<{ coupon: string }>(
      "SELECT coupon FROM coupon_redemptions WHERE user_id = ? ORDER BY coupon",
      [userId],
    );
    return rows.map((r) => r.coupon);
  },

  /** Records a redemption; the first one stays (same transaction as its order). */
  async record(
    q: Queryable,
    input: { userId: number; coupon: string; orderId: string; now: number },
  ): Promise<void> {
    await q.run(
      `INSERT INTO coupon_redemptions (user_id, coupon, order_id, redeemed_at)
       VALUES (?, ?, ?, ?) ON CONFLICT (user_id, coupon) DO NOTHING`,
      [input.userId, input.coupon.trim().toLowerCase(), input.orderId, input.now],
    );
  },
};
