// Revenue in a window and the invoices of the same window (decision 0091): what was charged by
// the orders made in it, less what refunds and lost disputes recorded in it credited back, tax
// included, which is what the invoices and credit notes issued in it add up to, to the cent.
import type { Ledger } from "./ledger.ts";
import type { InvoiceRow, OrderRow } from "./rows.ts";
import type { Window } from "./window.ts";

export type Revenue = {
  /** Paid orders made in the window (trials are not paid). */
  orders: number;
  chargedCents: number;
  /** Refunds and lost disputes recorded in the window. */
  refunds: number;
  refundedCents: number;
  /** charged − refunded, tax included: what the invoices must add up to. */
  revenueCents: number;
  taxCents: number;
  /** revenue − tax: what the business keeps. */
  netCents: number;
  /** The net revenue by what was sold (refunds taken off what they refunded). */
  netByKind: { purchases: number; renewals: number; exports: number };
};

export type Exports = { count: number; netCents: number };

export type InvoiceTotals = {
  invoices: number;
  invoicedCents: number;
  creditNotes: number;
  /** Negative. */
  creditedCents: number;
  /** Invoices recorded with their charge whose number is still to be given (decision 0062). */
  waiting: number;
  /** invoiced + credited: the sum of every document of the window. */
  totalCents: number;
};

const inWindow = (w: Window, at: number) => at >= w.from && at < w.to;
const kindOf = (o: OrderRow): keyof Revenue["netByKind"] =>
  o.kind === "one_off" ? "exports" : o.renewal ? "renewals" : "purchases";

export function revenueOf(ledger: Ledger, w: Window): Revenue {
  const r: Revenue = {
    orders: 0,
    chargedCents: 0,
    refunds: 0,
    refundedCents: 0,
    revenueCents: 0,
    taxCents: 0,
    netCents: 0,
    netByKind: { purchases: 0, renewals: 0, exports: 0 },
  };
  for (const order of ledger.orders.values()) {
    if (order.kind === "trial" || !inWindow(w, order.createdAt)) continue;
    r.orders += 1;
    r.chargedCents += order.total;
    r.taxCents += order.salesTax;
    r.netByKind[kindOf(order)] += order.subTotal;
  }
  for (const [orderId, refunds] of ledger.refunds) {
    const order = ledger.orders.get(orderId);
    for (const refund of refunds) {
      if (!inWindow(w, refund.createdAt)) continue;
      r.refunds += 1;
      r.refundedCents += refund.credited;
      r.taxCents -= refund.creditedTax;
      if (order) r.netByKind[kindOf(order)] -= refund.credited - refund.creditedTax;
    }
  }
  r.revenueCents = r.chargedCents - r.refundedCents;
  r.netCents = r.revenueCents - r.taxCents;
  return r;
}

/** One-off exports bought in the window: how many, and their net revenue less refunds. */
export function exportsOf(ledger: Ledger, w: Window): Exports {
  let count = 0;
  for (const order of ledger.orders.values())
    if (order.kind === "one_off" && inWindow(w, order.createdAt)) count += 1;
  return { count, netCents: revenueOf(ledger, w).netByKind.exports };
}

export function invoiceTotalsOf(documents: readonly InvoiceRow[], w: Window): InvoiceTotals {
  const t: InvoiceTotals = {
    invoices: 0,
    invoicedCents: 0,
    creditNotes: 0,
    creditedCents: 0,
    waiting: 0,
    totalCents: 0,
  };
  for (const doc of documents) {
    if (!inWindow(w, doc.issuedAt)) continue;
    if (doc.waiting) t.waiting += 1;
    if (doc.kind === "credit_note") {
      t.creditNotes += 1;
      t.creditedCents += doc.total;
    } else {
      t.invoices += 1;
      t.invoicedCents += doc.total;
    }
  }
  t.totalCents = t.invoicedCents + t.creditedCents;
  return t;
}
