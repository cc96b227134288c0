// What `catalog report` reads from the server's database, as plain rows (cli/core/report/data.ts
// makes them with Kysely; the tests of this folder write them by hand). Amounts are integer
// cents, times milliseconds since the epoch, as the database holds them.
import type { PaymentItem } from "../account/standing-payments.ts";

/** One order (orders): a purchase, a renewal, a trial or a one-off export. */
export type OrderRow = {
  id: string;
  userId: number;
  /** "plan", "trial" or "one_off". */
  kind: string;
  productCode: string;
  seats: number;
  addOns: readonly string[];
  subTotal: number;
  salesTax: number;
  total: number;
  /** The price before an upgrade credit (a renewal's: what it charged). */
  listPrice: number;
  prorateAmount: number;
  periodStart: number;
  periodEnd: number | null;
  termMonths: number;
  coupon: string | null;
  createdAt: number;
  /** `default` or a price test's set; null on orders from before migration 8. */
  priceSet: string | null;
  /** A paid renewal period (the renewal worker's or PayPal's), not a purchase. */
  renewal: boolean;
};

/** What an order paid for (order_items, decision 0075), read as the domain's items. */
export type ItemRow = { orderId: string; item: PaymentItem };

/** A refund or a lost dispute of an order (refunds). */
export type RefundRow = {
  id: string;
  orderId: string;
  userId: number;
  amount: number;
  kind: string;
  createdAt: number;
};

/** An invoice or credit note (negative total); `waiting`: recorded, its number not yet given. */
export type InvoiceRow = {
  number: string | null;
  kind: "invoice" | "credit_note";
  orderId: string;
  total: number;
  issuedAt: number;
  waiting: boolean;
};

/** A customer's cancellation (events of kind "cancellation"): its name says which. */
export type CancellationRow = { userId: number; name: string; at: number };

/** One experiment event (experiment_events, migration 30). */
export type ExperimentEventRow = {
  experimentId: string;
  visitorId: string;
  kind: string;
  groupId: string;
  at: number;
  orderId: string | null;
};

/** Everything the report is computed from. */
export type ReportRows = {
  orders: readonly OrderRow[];
  items: readonly ItemRow[];
  refunds: readonly RefundRow[];
  /** Invoices and credit notes issued inside the window, numbered or waiting. */
  invoices: readonly InvoiceRow[];
  cancellations: readonly CancellationRow[];
  experimentEvents: readonly ExperimentEventRow[];
};
