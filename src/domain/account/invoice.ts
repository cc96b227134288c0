// The invoice summary of spec section 3.6, from the list the invoices calls return (the last
// entry is used; an empty list fails with the spec's message).
import { addMonthsClamped } from "../calendar/index.ts";
import { MESSAGES } from "../errors/messages.ts";
import type { PaymentProcessor } from "./payment-method.ts";

export type InvoiceEntry = {
  invoiceId: string | null;
  invoiceNumber: string | null;
  orderId: string;
  productCode: string;
  /** The plan's name ("Unlimited"). */
  productName: string;
  /** Months the order runs. */
  orderDuration: number;
  orderEndDate: number;
  /** List price of the order in cents. */
  price: number;
  /** What was actually paid in cents. */
  amountPaid: number;
  /** Seats of the order (1 for a plan of one person). */
  seats?: number;
};

export type InvoiceSummary = {
  orderId: string;
  /** The plan bought, by name ("Unlimited"): the completed page names it (issue 22, item 8). */
  productName: string;
  orderDuration: number;
  orderStartDate: number;
  hasFlex: boolean;
  paymentProcessor: PaymentProcessor;
  paymentInvoiceId: string;
  price: number;
  /**
   * What was charged (cents). Not a field of spec 3.6, whose card price is the list price: a
   * prorated change (added seats, an upgrade) charges less than that, and the receipt says both.
   */
  amountPaid: number;
  /** The product bought (its code), the order's seats and end: what kind of purchase it was. */
  productCode: string;
  seats: number;
  orderEndDate: number;
  /**
   * The order before it, when it was for the same plan or its Essentials twin (a seat addition
   * or an add-on changes the running plan): its product and seats. Null otherwise.
   */
  previous: { productCode: string; seats: number } | null;
};

/** The end date minus a number of calendar months (UTC, clamped to the month's end). */
function monthsBefore(endMs: number, months: number): number {
  return addMonthsClamped(endMs, -months);
}

/** The family of a plan code, without its Essentials marker: wv_single_plus_12m → wv_single_12m. */
function planFamily(code: string): string {
  return code.replace("_plus_", "_");
}

function previousOf(list: readonly InvoiceEntry[]): InvoiceSummary["previous"] {
  const last = list.at(-1);
  const before = list.at(-2);
  if (!last || !before || planFamily(before.productCode) !== planFamily(last.productCode)) {
    return null;
  }
  return { productCode: before.productCode, seats: before.seats ?? 1 };
}

export function invoiceSummary(
  list: readonly InvoiceEntry[],
  processor: PaymentProcessor,
): { ok: true; value: InvoiceSummary } | { ok: false; message: string } {
  const last = list.at(-1);
  if (!last) {
    return {
      ok: false,
      message:
        processor === "paypal" ? MESSAGES.paypalInvoiceNotGenerated : MESSAGES.invoiceNotGenerated,
    };
  }
  const paymentInvoiceId = last.invoiceNumber || last.invoiceId;
  if (!paymentInvoiceId) return { ok: false, message: MESSAGES.invoiceNotGenerated };
  return {
    ok: true,
    value: {
      orderId: last.orderId,
      productName: last.productName,
      orderDuration: last.orderDuration,
      orderStartDate: monthsBefore(last.orderEndDate, last.orderDuration),
      hasFlex: last.productCode.includes("flex"),
      paymentProcessor: processor,
      paymentInvoiceId,
      price: processor === "paypal" ? last.amountPaid : last.price,
      amountPaid: last.amountPaid,
      productCode: last.productCode,
      seats: last.seats ?? 1,
      orderEndDate: last.orderEndDate,
      previous: previousOf(list),
    },
  };
}
