// Queries of the orders table. An order row is written in the same transaction as the account
// change it pays for and the idempotency record that acknowledges it.
import type { Queryable } from "./db.ts";
import { mapper } from "./records.ts";

export type OrderKind = "plan" | "trial" | "one_off";

export type Order = {
  id: string;
  userId: number;
  kind: OrderKind;
  productCode: string;
  productName: string;
  seats: number;
  addOns: string[];
  subTotal: number;
  salesTax: number;
  total: number;
  listPrice: number;
  prorateAmount: number;
  currency: string;
  processor: "cc" | "paypal" | null;
  chargeRef: string | null;
  invoiceId: string | null;
  periodStart: number;
  periodEnd: number | null;
  termMonths: number;
  coupon: string | null;
  idempotencyKey: string | null;
  createdAt: number;
  /** The catalogue version it was priced with (src/domain/catalog/version.ts); null before migration 8. */
  catalogVersion: string | null;
  /** The price set it was priced with: `default`, or a price test's set; null before migration 8. */
  priceSet: string | null;
};

const map = mapper<Order>("orders", {
  id: ["id", "text"],
  userId: ["user_id", "int"],
  kind: ["kind", "text"],
  productCode: ["product_code", "text"],
  productName: ["product_name", "text"],
  seats: ["seats", "int"],
  addOns: ["add_ons", "json"],
  subTotal: ["sub_total", "int"],
  salesTax: ["sales_tax", "int"],
  total: ["total", "int"],
  listPrice: ["list_price", "int"],
  prorateAmount: ["prorate_amount", "int"],
  currency: ["currency", "text"],
  processor: ["processor", "text"],
  chargeRef: ["charge_ref", "text"],
  invoiceId: ["invoice_id", "text"],
  periodStart: ["period_start", "int"],
  periodEnd: ["period_end", "int"],
  termMonths: ["term_months", "int"],
  coupon: ["coupon", "text"],
  idempotencyKey: ["idempotency_key", "text"],
  createdAt: ["created_at", "int"],
  catalogVersion: ["catalog_version", "text"],
  priceSet: ["price_set", "text"],
});

export const Orders = {
  async insert(q: Queryable, order: Order): Promise<void> {
    const { sql, params } = map.insert(order);
    await q.run(sql, params);
  },
  /**
   * The order that holds a provider's charge, if any: a charge pays for one order only (unique
   * index, migration 14), so a replay that finds the provider's first charge answers with it.
   */
  async byChargeRef(q: Queryable, chargeRef: string): Promise<Order | null> {
    const row = await q.get("SELECT * FROM orders WHERE charge_ref = ?", [chargeRef]);
    return row ? map.fromRow(row) : null;
  } /** Replaces an order's charge reference (a PayPal first payment learns its sale id late). */,
  async setChargeRef(q: Queryable, id: string, from: string, to: string): Promise<boolean> {
    const r = await q.run("UPDATE orders SET charge_ref = ? WHERE id = ? AND charge_ref = ?", [
      to,
      id,
      from,
    ]);
    return r.changes === 1;
  },

  /** The user's order made with an Idempotency-Key, if any (the key table forgets after a day). */
  async byIdempotencyKey(q: Queryable, userId: number, key: string): Promise<Order | null> {
    const row = await q.get(
      "SELECT * FROM orders WHERE user_id = ? AND idempotency_key = ? ORDER BY seq LIMIT 1",
      [userId, key],
    );
    return row ? map.fromRow(row) : null;
  },
  /** Card orders paid through a provider payment since a time (the reconciliation). */
  async cardOrdersSince(q: Queryable, since: number): Promise<Order[]> {
    const rows = await q.all(
      "SELECT * FROM orders WHERE processor = 'cc' AND charge_ref IS NOT NULL AND total > 0 AND created_at >= ? ORDER BY seq",
      [since],
    );
    return rows.map((row) => map.fromRow(row));
  },
  async byId(q: Queryable, id: string): Promise<Order | null> {
    const row = await q.get("SELECT * FROM orders WHERE id = ?", [id]);
    return row ? map.fromRow(row) : null;
  },
  /** A page of a user's paid orders (invoices) for one processor, oldest first within the page. */
  async invoicesFor(
    q: Queryable,
    userId: number,
    processor: "cc" | "paypal",
    page: number,
    pageSize: number,
  ): Promise<Order[]> {
    const rows = await q.all(
      `SELECT * FROM (
         SELECT * FROM orders WHERE user_id = ? AND processor = ? AND invoice_id IS NOT NULL
         ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?
       ) AS page ORDER BY created_at ASC, seq ASC`,
      [userId, processor, pageSize, (page - 1) * pageSize],
    );
    return rows.map((row) => map.fromRow(row));
  },
  /** Whether the user has ever paid for an order of their own (a team disband keeps them). */
  async hasPaid(q: Queryable, userId: number): Promise<boolean> {
    const row = await q.get(
      "SELECT 1 AS paid FROM orders WHERE user_id = ? AND total > 0 LIMIT 1",
      [userId],
    );
    return row !== undefined;
  },
  async countFor(q: Queryable, userId: number): Promise<number> {
    const row = await q.get<{ n: number }>("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?", [
      userId,
    ]);
    return row?.n ?? 0;
  },
};
