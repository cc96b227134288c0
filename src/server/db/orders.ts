// Queries of the orders table. An order row is written in the same transaction as the account
// change it pays for and the idempotency record that acknowledges it. Kysely's typed builder
// (decision 0082).
import type { Insertable, Selectable } from "kysely";
import type { Queryable } from "./db.ts";
import type { OrdersTable } from "./schema-payments.ts";

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

type Row = Selectable<OrdersTable>;

const COLUMNS = [
  "id",
  "user_id",
  "kind",
  "product_code",
  "product_name",
  "seats",
  "add_ons",
  "sub_total",
  "sales_tax",
  "total",
  "list_price",
  "prorate_amount",
  "currency",
  "processor",
  "charge_ref",
  "invoice_id",
  "period_start",
  "period_end",
  "term_months",
  "coupon",
  "idempotency_key",
  "created_at",
  "catalog_version",
  "price_set",
] as const satisfies readonly (keyof Row)[];

type Stored = Pick<Row, (typeof COLUMNS)[number]>;

function fromRow(r: Stored): Order {
  return {
    id: r.id,
    userId: r.user_id,
    kind: r.kind as OrderKind,
    productCode: r.product_code,
    productName: r.product_name,
    seats: r.seats,
    addOns: JSON.parse(r.add_ons) as string[],
    subTotal: r.sub_total,
    salesTax: r.sales_tax,
    total: r.total,
    listPrice: r.list_price,
    prorateAmount: r.prorate_amount,
    currency: r.currency,
    processor: r.processor as Order["processor"],
    chargeRef: r.charge_ref,
    invoiceId: r.invoice_id,
    periodStart: r.period_start,
    periodEnd: r.period_end,
    termMonths: r.term_months,
    coupon: r.coupon,
    idempotencyKey: r.idempotency_key,
    createdAt: r.created_at,
    catalogVersion: r.catalog_version,
    priceSet: r.price_set,
  };
}

function toRow(o: Order): Insertable<OrdersTable> {
  return {
    id: o.id,
    user_id: o.userId,
    kind: o.kind,
    product_code: o.productCode,
    product_name: o.productName,
    seats: o.seats,
    add_ons: JSON.stringify(o.addOns),
    sub_total: o.subTotal,
    sales_tax: o.salesTax,
    total: o.total,
    list_price: o.listPrice,
    prorate_amount: o.prorateAmount,
    currency: o.currency,
    processor: o.processor,
    charge_ref: o.chargeRef,
    invoice_id: o.invoiceId,
    period_start: o.periodStart,
    period_end: o.periodEnd,
    term_months: o.termMonths,
    coupon: o.coupon,
    idempotency_key: o.idempotencyKey,
    created_at: o.createdAt,
    catalog_version: o.catalogVersion,
    price_set: o.priceSet,
  };
}

const orders = (q: Queryable) => q.kysely.selectFrom("orders").select(COLUMNS);

export const Orders = {
  async insert(q: Queryable, order: Order): Promise<void> {
    await q.kysely.insertInto("orders").values(toRow(order)).execute();
  },
  /**
   * The order that holds a provider's charge, if any: a charge pays for one order only (unique
   * index, migration 14), so a replay that finds the provider's first charge answers with it.
   */
  async byChargeRef(q: Queryable, chargeRef: string): Promise<Order | null> {
    const row = await orders(q).where("charge_ref", "=", chargeRef).executeTakeFirst();
    return row ? fromRow(row) : null;
  },
  /** Replaces an order's charge reference (a PayPal first payment learns its sale id late). */
  async setChargeRef(q: Queryable, id: string, from: string, to: string): Promise<boolean> {
    const r = await q.kysely
      .updateTable("orders")
      .set({ charge_ref: to })
      .where("id", "=", id)
      .where("charge_ref", "=", from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  /** The user's order made with an Idempotency-Key, if any (the key table forgets after a day). */
  async byIdempotencyKey(q: Queryable, userId: number, key: string): Promise<Order | null> {
    const row = await orders(q)
      .where("user_id", "=", userId)
      .where("idempotency_key", "=", key)
      .orderBy("seq")
      .limit(1)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  },
  /** Card orders paid through a provider payment since a time (the reconciliation). */
  async cardOrdersSince(q: Queryable, since: number): Promise<Order[]> {
    const rows = await orders(q)
      .where("processor", "=", "cc")
      .where("charge_ref", "is not", null)
      .where("total", ">", 0)
      .where("created_at", ">=", since)
      .orderBy("seq")
      .execute();
    return rows.map(fromRow);
  },
  async byId(q: Queryable, id: string): Promise<Order | null> {
    const row = await orders(q).where("id", "=", id).executeTakeFirst();
    return row ? fromRow(row) : null;
  },
  /** A page of a user's paid orders (invoices) for one processor, oldest first within the page. */
  async invoicesFor(
    q: Queryable,
    userId: number,
    processor: "cc" | "paypal",
    page: number,
    pageSize: number,
  ): Promise<Order[]> {
    const newest = q.kysely
      .selectFrom("orders")
      .selectAll()
      .where("user_id", "=", userId)
      .where("processor", "=", processor)
      .where("invoice_id", "is not", null)
      .orderBy("created_at", "desc")
      .orderBy("seq", "desc")
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    const rows = await q.kysely
      .selectFrom(newest.as("page"))
      .select(COLUMNS)
      .orderBy("created_at", "asc")
      .orderBy("seq", "asc")
      .execute();
    return rows.map(fromRow);
  },
  /** Whether the user has ever paid for an order of their own (a team disband keeps them). */
  async hasPaid(q: Queryable, userId: number): Promise<boolean> {
    const row = await q.kysely
      .selectFrom("orders")
      .select("seq")
      .where("user_id", "=", userId)
      .where("total", ">", 0)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },
  async countFor(q: Queryable, userId: number): Promise<number> {
    const row = await q.kysely
      .selectFrom("orders")
      .select((e) => e.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },
};
