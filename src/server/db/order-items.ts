// What each payment paid for (table `order_items`, migration 29; issue 33 item 1, decision 0075):
// an order's items (a plan with its seats for a period, seats or essentials added to a running
// plan, export credits, the upgrade credit taken from an earlier payment), written with the
// order, and an account's payments read back with whether each was given back (refunded in full
// or lost to a dispute), for src/domain/account/standing-payments.ts. Kysely's typed builder
// (decision 0082).
import type { Selectable } from "kysely";
import type { PaymentFacts, PaymentItem } from "../../domain/account/standing-payments.ts";
import type { Queryable } from "./db.ts";
import type { OrderItemsTable } from "./schema-payments.ts";

type ItemColumns = Omit<OrderItemsTable, "order_id" | "position" | "user_id">;

/** An item as its row's columns, but for the order id, position and user id. */
function columnsOf(item: PaymentItem): ItemColumns {
  const none = { product_code: null, period_start: null, period_end: null, rests_on: null };
  switch (item.kind) {
    case "plan":
      return {
        ...none,
        kind: "plan",
        product_code: item.productCode,
        quantity: item.seats,
        amount: item.value,
        period_start: item.periodStart,
        period_end: item.periodEnd,
      };
    case "seats":
      return {
        ...none,
        kind: "seats",
        quantity: item.seats,
        amount: item.value,
        period_start: item.periodStart,
        period_end: item.periodEnd,
        rests_on: item.restsOn,
      };
    case "essentials":
      return {
        kind: "essentials",
        product_code: item.productCode,
        quantity: 1,
        amount: item.value,
        period_start: item.periodStart,
        period_end: item.periodEnd,
        rests_on: item.restsOn,
      };
    case "exportCredits":
      return { ...none, kind: "export_credits", quantity: item.credits, amount: 0 };
    case "credit":
      return { ...none, kind: "credit", quantity: 1, amount: item.cents, rests_on: item.restsOn };
  }
}

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** An item from its row; null for one that cannot be read (a backfilled credit with no source). */
function itemOf(row: Selectable<OrderItemsTable>): PaymentItem | null {
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
    await q.kysely
      .insertInto("order_items")
      .values(
        items.map((item, position) => ({
          order_id: order.id,
          position,
          user_id: order.userId,
          ...columnsOf(item),
        })),
      )
      .execute();
  },

  /**
   * The payment of the plan an order's period rests on: the order itself, or for an addition the
   * plan's payment it was made to (what a later addition or upgrade credit rests on).
   */
  async planPaymentOf(q: Queryable, orderId: string): Promise<string> {
    const row = await q.kysely
      .selectFrom("order_items")
      .select("rests_on")
      .where("order_id", "=", orderId)
      .where("kind", "in", ["seats", "essentials"])
      .limit(1)
      .executeTakeFirst();
    return typeof row?.rests_on === "string" ? row.rests_on : orderId;
  },

  /**
   * The account's payments in purchase order, with their items and whether each was given back:
   * refunded (or lost to disputes) for its whole total. Trials and orders of nothing paid for
   * are left out: they bought nothing a refund could take back.
   */
  async paymentsOf(q: Queryable, userId: number): Promise<PaymentFacts[]> {
    const refunded = q.kysely
      .selectFrom("refunds")
      .select((e) => ["order_id", e.fn.sum<number>("amount").as("refunded")])
      .where("user_id", "=", userId)
      .groupBy("order_id")
      .as("r");
    const [orders, items] = await Promise.all([
      q.kysely
        .selectFrom("orders as o")
        .leftJoin(refunded, (j) => j.onRef("r.order_id", "=", "o.id"))
        .select((e) => ["o.id", "o.total", e.fn.coalesce("r.refunded", e.lit(0)).as("refunded")])
        .where("o.user_id", "=", userId)
        .where("o.kind", "<>", "trial")
        .orderBy("o.seq")
        .execute(),
      q.kysely
        .selectFrom("order_items")
        .selectAll()
        .where("user_id", "=", userId)
        .orderBy("order_id")
        .orderBy("position")
        .execute(),
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
