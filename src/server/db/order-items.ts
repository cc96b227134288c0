// What each payment paid for (table `order_items`, migration 29; issue 33 item 1, decision 0075):
// an order's items (a plan with its seats for a period, seats or essentials added to a running
// plan, export credits, the upgrade credit taken from an earlier payment), written with the
// order, and an account's payments read back with whether each was given back (refunded in full
// or lost to a dispute), for src/domain/account/standing-payments.ts.
import type { PaymentFacts, PaymentItem } from "../../domain/account/standing-payments.ts";
import type { Queryable, Row, SqlValue } from "./db.ts";

const COLUMNS =
  "order_id, position, user_id, kind, product_code, quantity, amount, period_start, period_end, rests_on";

/** An item as its row's values, after the order id, position and user id. */
function values(item: PaymentItem): SqlValue[] {
  switch (item.kind) {
    case "plan":
      return [
        "plan",
        item.productCode,
        item.seats,
        item.value,
        item.periodStart,
        item.periodEnd,
        null,
      ];
    case "seats":
      return [
        "seats",
        null,
        item.seats,
        item.value,
        item.periodStart,
        item.periodEnd,
        item.restsOn,
      ];
    case "essentials":
      return [
        "essentials",
        item.productCode,
        1,
        item.value,
        item.periodStart,
        item.periodEnd,
        item.restsOn,
      ];
    case "exportCredits":
      return ["export_credits", null, item.credits, 0, null, null, null];
    case "credit":
      return ["credit", null, 1, item.cents, null, null, item.restsOn];
  }
}

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** An item from its row; null for one that cannot be read (a backfilled credit with no source). */
function itemOf(row: Row): PaymentItem | null {
  const restsOn = typeof row.rests_on === "string" ? row.rests_on : null;
  switch (row.kind) {
    case "plan":
      return {
        kind: "plan",
        productCode: String(row.product_code),
        seats: num(row.quantity),
        periodStart: num(row.period_start),
        periodEnd: numOrNull(row.period_end),
        value: num(row.amount),
      };
    case "seats":
      return restsOn
        ? {
            kind: "seats",
            seats: num(row.quantity),
            restsOn,
            periodStart: num(row.period_start),
            periodEnd: numOrNull(row.period_end),
            value: num(row.amount),
          }
        : null;
    case "essentials":
      return restsOn
        ? {
            kind: "essentials",
            productCode: String(row.product_code),
            restsOn,
            periodStart: num(row.period_start),
            periodEnd: numOrNull(row.period_end),
            value: num(row.amount),
          }
        : null;
    case "export_credits":
      return { kind: "exportCredits", credits: num(row.quantity) };
    case "credit":
      return restsOn ? { kind: "credit", cents: num(row.amount), restsOn } : null;
    default:
      return null;
  }
}

export const OrderItems = {
  /** Records an order's items, in one statement (none for an order that bought nothing). */
  async insert(
    q: Queryable,
    order: { id: string; userId: number },
    items: readonly PaymentItem[],
  ): Promise<void> {
    if (items.length === 0) return;
    const params = items.flatMap((item, position) => [
      order.id,
      position,
      order.userId,
      ...values(item),
    ]);
    const row = `(${COLUMNS.split(", ")
      .map(() => "?")
      .join(", ")})`;
    await q.run(
      `INSERT INTO order_items (${COLUMNS}) VALUES ${items.map(() => row).join(", ")}`,
      params,
    );
  },

  /**
   * The payment of the plan an order's period rests on: the order itself, or for an addition the
   * plan's payment it was made to (what a later addition or upgrade credit rests on).
   */
  async planPaymentOf(q: Queryable, orderId: string): Promise<string> {
    const row = await q.get(
      "SELECT rests_on FROM order_items WHERE order_id = ? AND kind IN ('seats', 'essentials') LIMIT 1",
      [orderId],
    );
    return typeof row?.rests_on === "string" ? row.rests_on : orderId;
  },

  /**
   * The account's payments in purchase order, with their items and whether each was given back:
   * refunded (or lost to disputes) for its whole total. Trials and orders of nothing paid for
   * are left out: they bought nothing a refund could take back.
   */
  async paymentsOf(q: Queryable, userId: number): Promise<PaymentFacts[]> {
    const [orders, items] = await Promise.all([
      q.all(
        `SELECT o.id, o.total, COALESCE(r.refunded, 0) AS refunded
           FROM orders o
           LEFT JOIN (SELECT order_id, SUM(amount) AS refunded FROM refunds WHERE user_id = ? GROUP BY order_id) r
             ON r.order_id = o.id
          WHERE o.user_id = ? AND o.kind <> 'trial'
          ORDER BY o.seq`,
        [userId, userId],
      ),
      q.all(`SELECT ${COLUMNS} FROM order_items WHERE user_id = ? ORDER BY order_id, position`, [
        userId,
      ]),
    ]);
    const byOrder = new Map<string, PaymentItem[]>();
    for (const row of items) {
      const item = itemOf(row);
      if (item === null) continue;
      const list = byOrder.get(String(row.order_id)) ?? [];
      list.push(item);
      byOrder.set(String(row.order_id), list);
    }
    return orders.map((row) => {
      const total = num(row.total);
      return {
        id: String(row.id),
        givenBack: total > 0 && num(row.refunded) >= total,
        items: byOrder.get(String(row.id)) ?? [],
      };
    });
  },
};
