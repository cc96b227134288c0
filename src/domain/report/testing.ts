// Hand-made rows for the report's tests: an order with its items as the server records them.
import type { PaymentItem } from "../account/standing-payments.ts";
import type { Catalog } from "../catalog/catalog-schema.ts";
import { makeCampaign, makeSpecCatalog } from "../testing/builders.ts";
import type { ItemRow, OrderRow, ReportRows } from "./rows.ts";

export const DAY = 86_400_000;
export const utc = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

let next = 0;
/** A paid plan order (Power annual unless told), its period from `createdAt`. */
export function order(
  overrides: Partial<OrderRow> & { userId: number; createdAt: number },
): OrderRow {
  next += 1;
  const subTotal = overrides.subTotal ?? 5988;
  const salesTax = overrides.salesTax ?? 0;
  return {
    id: `ord_${next}`,
    kind: "plan",
    productCode: "wv_single_12m",
    seats: 1,
    addOns: [],
    subTotal,
    salesTax,
    total: subTotal + salesTax,
    listPrice: subTotal,
    prorateAmount: 0,
    periodStart: overrides.createdAt,
    periodEnd: null,
    termMonths: 12,
    coupon: null,
    priceSet: "default",
    renewal: false,
    ...overrides,
  };
}

/** The plan item a plan order records (decision 0075). */
export function planItem(o: OrderRow): ItemRow {
  const item: PaymentItem = {
    kind: "plan",
    productCode: o.productCode,
    seats: o.seats,
    periodStart: o.periodStart,
    periodEnd: o.periodEnd,
    value: o.listPrice,
  };
  return { orderId: o.id, item };
}

export function rowsOf(parts: Partial<ReportRows>): ReportRows {
  return {
    orders: [],
    items: [],
    refunds: [],
    invoices: [],
    cancellations: [],
    experimentEvents: [],
    ...parts,
  };
}

/** The invoice each paid order gets, on its date, for the total it charged. */
export function invoicesOf(orders: readonly OrderRow[]) {
  return orders
    .filter((o) => o.kind !== "trial")
    .map((o) => ({
      number: `INV-${o.id}`,
      kind: "invoice" as const,
      orderId: o.id,
      total: o.total,
      issuedAt: o.createdAt,
      waiting: false,
    }));
}

/** The spec's plans and one public campaign, "winter": Power annual at 29.94 in January 2026. */
export function reportCatalog(): Catalog {
  return makeSpecCatalog({
    campaigns: [
      makeCampaign({
        id: "winter",
        name: "Winter sale",
        coupon: "winter2026",
        targeted: false,
        recurring: false,
        validFrom: utc(2026, 1, 10),
        validTo: utc(2026, 2, 1),
        prices: { wv_single_12m: 2994 },
        products: ["wv_single_12m"],
      }),
    ],
  });
}
