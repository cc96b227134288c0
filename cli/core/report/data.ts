// The report's reads: plain rows (src/domain/report/rows.ts) from the server's tables, through
// Kysely's typed builder on a read-only database (database.ts). Everything up to the window's
// end is read, as MRR and subscriptions need payments made before the window; invoices only
// those of the window. BIGINT columns arrive as strings from PostgreSQL: each is made a number.
import type { PaymentItem } from "../../../src/domain/account/standing-payments.ts";
import type { ItemRow, OrderRow, ReportRows } from "../../../src/domain/report/rows.ts";
import type { Window } from "../../../src/domain/report/window.ts";
import type { ReadDb } from "./database.ts";

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown): string => String(v);
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** A renewal's order: the renewal worker's key, or PayPal's sale (services/paid-renewal.ts). */
function isRenewalKey(key: string | null): boolean {
  return key !== null && (key.startsWith("renewal:") || key.startsWith("paypal-sale:"));
}

function addOnsOf(text: unknown): string[] {
  try {
    const parsed: unknown = JSON.parse(String(text ?? "[]"));
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

/** An order_items row as the domain's item (null: one that cannot be read, as order-items.ts). */
export function itemOf(row: {
  kind: string;
  product_code: string | null;
  quantity: unknown;
  amount: unknown;
  period_start: unknown;
  period_end: unknown;
  rests_on: string | null;
}): PaymentItem | null {
  const restsOn = row.rests_on;
  const period = { periodStart: num(row.period_start), periodEnd: numOrNull(row.period_end) };
  switch (row.kind) {
    case "plan":
      return {
        kind: "plan",
        productCode: str(row.product_code),
        seats: num(row.quantity),
        ...period,
        value: num(row.amount),
      };
    case "seats":
      return restsOn
        ? { kind: "seats", seats: num(row.quantity), restsOn, ...period, value: num(row.amount) }
        : null;
    case "essentials":
      return restsOn
        ? {
            kind: "essentials",
            productCode: str(row.product_code),
            restsOn,
            ...period,
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

export async function readReportRows(db: ReadDb, w: Window): Promise<ReportRows> {
  const [orders, renewals, items, refunds, invoices, waiting, cancellations, events] =
    await Promise.all([
      db.selectFrom("orders").selectAll().where("created_at", "<", w.to).orderBy("seq").execute(),
      db.selectFrom("renewals").select("order_id").where("order_id", "is not", null).execute(),
      db.selectFrom("order_items").selectAll().orderBy("order_id").orderBy("position").execute(),
      db.selectFrom("refunds").selectAll().where("created_at", "<", w.to).execute(),
      db
        .selectFrom("invoices")
        .select(["number", "kind", "order_id", "total", "issued_at"])
        .where("issued_at", ">=", w.from)
        .where("issued_at", "<", w.to)
        .execute(),
      db
        .selectFrom("waiting_invoices")
        .select(["order_id", "total", "issued_at"])
        .where("issued_at", ">=", w.from)
        .where("issued_at", "<", w.to)
        .execute(),
      db
        .selectFrom("events")
        .select(["user_id", "name", "created_at"])
        .where("kind", "=", "cancellation")
        .where("user_id", "is not", null)
        .where("created_at", "<", w.to)
        .execute(),
      db.selectFrom("experiment_events").selectAll().where("at", "<", w.to).execute(),
    ]);
  const renewalOrders = new Set(renewals.map((r) => str(r.order_id)));
  const orderRows: OrderRow[] = orders.map((o) => ({
    id: str(o.id),
    userId: num(o.user_id),
    kind: str(o.kind),
    productCode: str(o.product_code),
    seats: num(o.seats),
    addOns: addOnsOf(o.add_ons),
    subTotal: num(o.sub_total),
    salesTax: num(o.sales_tax),
    total: num(o.total),
    listPrice: num(o.list_price),
    prorateAmount: num(o.prorate_amount),
    periodStart: num(o.period_start),
    periodEnd: numOrNull(o.period_end),
    termMonths: num(o.term_months),
    coupon: strOrNull(o.coupon),
    createdAt: num(o.created_at),
    priceSet: strOrNull(o.price_set),
    renewal: renewalOrders.has(str(o.id)) || isRenewalKey(strOrNull(o.idempotency_key)),
  }));
  const known = new Set(orderRows.map((o) => o.id));
  const itemRows: ItemRow[] = [];
  for (const row of items) {
    if (!known.has(str(row.order_id))) continue;
    const item = itemOf(row);
    if (item) itemRows.push({ orderId: str(row.order_id), item });
  }
  return {
    orders: orderRows,
    items: itemRows,
    refunds: refunds.map((r) => ({
      id: str(r.id),
      orderId: str(r.order_id),
      userId: num(r.user_id),
      amount: num(r.amount),
      kind: str(r.kind),
      createdAt: num(r.created_at),
    })),
    invoices: [
      ...invoices.map((i) => ({
        number: str(i.number),
        kind: i.kind === "credit_note" ? ("credit_note" as const) : ("invoice" as const),
        orderId: str(i.order_id),
        total: num(i.total),
        issuedAt: num(i.issued_at),
        waiting: false,
      })),
      ...waiting.map((i) => ({
        number: null,
        kind: "invoice" as const,
        orderId: str(i.order_id),
        total: num(i.total),
        issuedAt: num(i.issued_at),
        waiting: true,
      })),
    ],
    cancellations: cancellations.map((c) => ({
      userId: num(c.user_id),
      name: str(c.name),
      at: num(c.created_at),
    })),
    experimentEvents: events.map((e) => ({
      experimentId: str(e.experiment_id),
      visitorId: str(e.visitor_id),
      kind: str(e.kind),
      groupId: str(e.group_id),
      at: num(e.at),
      orderId: strOrNull(e.order_id),
    })),
  };
}
