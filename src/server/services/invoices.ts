// Invoices, credit notes and receipts (issue 23). An invoice is issued in the transaction that
// records the charge it documents (a purchase's commit, a renewal's, a PayPal approval's), takes
// its number there (db/invoices.ts), and queues the receipt e-mail there too: a charge recorded
// has its invoice and its receipt, and a charge rolled back has neither, nor a number.
import {
  creditNoteDocument,
  type DocumentLine,
  type InvoiceDocument,
  invoiceDocument,
  type Party,
} from "../../domain/invoices/document.ts";
import { countryName, formatDate } from "../../domain/invoices/printable.ts";
import {
  chargedTaxLocation,
  type TaxBuyer,
  type TaxTreatment,
  taxTreatment,
} from "../../domain/invoices/tax-treatment.ts";
import { formatUsd, type OrderSummary, type TaxLocation } from "../../domain/pricing/index.ts";
import type { Config } from "../config.ts";
import type { Queryable } from "../db/db.ts";
import {
  type BillingDetails,
  BillingDetailsTable,
  Invoices,
  type StoredInvoice,
} from "../db/invoices.ts";
import type { Order } from "../db/orders.ts";
import { type User, Users } from "../db/users.ts";
import type { Mail, Mailer } from "../mail/mailer.ts";
import { locationOf } from "./location.ts";

export type InvoiceDeps = {
  mailer: Pick<Mailer, "queue">;
  config: Pick<Config, "publicBaseUrl" | "seller">;
};

export function sellerParty(config: Pick<Config, "seller">): Party {
  const { seller } = config;
  return {
    name: seller.name,
    contact: null,
    address: seller.address,
    country: seller.country,
    taxId: seller.taxId,
    email: null,
  };
}

/** The buyer as the invoice names them: the organisation when one is given, else the person. */
export function buyerParty(user: User, details: BillingDetails | null): Party {
  const address = user.address;
  const person = address?.name || `${user.firstName} ${user.lastName}`.trim() || user.email;
  const organisation = details?.organisation ?? address?.company ?? null;
  const street = details?.street ?? address?.line1 ?? null;
  const city = details?.city ?? address?.city ?? null;
  const place = [address?.postalCode, city, locationOf(user).stateCode].filter(Boolean).join(" ");
  return {
    name: organisation ?? person,
    contact: organisation ? person : null,
    address: [street, address?.line2, place].filter((line): line is string => Boolean(line)),
    country: locationOf(user).countryCode,
    taxId: details?.taxId ?? null,
    email: user.email,
  };
}

/** The buyer as the tax rule sees them: where they are billed and their checked VAT id. */
function taxBuyerOf(
  user: Pick<User, "country" | "stateCode">,
  details: BillingDetails | null,
): TaxBuyer & { state: string | null } {
  const where = locationOf(user);
  return {
    country: where.countryCode,
    state: where.stateCode,
    vatId:
      details?.taxId && details.taxIdCountry
        ? { country: details.taxIdCountry, valid: details.taxIdValid }
        : null,
  };
}

/** The tax rule of the account's next charge: reverse charge or the rate of where it is. */
export function treatmentFor(
  config: { seller: Pick<Config["seller"], "country"> },
  user: Pick<User, "country" | "stateCode">,
  details: BillingDetails | null,
): TaxTreatment {
  return taxTreatment(config.seller.country, taxBuyerOf(user, details));
}

/**
 * Where the account's charges are taxed (null: reverse charge, no tax), by the same rule as its
 * invoices. Every amount with tax in it (quote, charge, renewal, next billing amount) uses this.
 */
export function taxLocationFor(
  config: { seller: Pick<Config["seller"], "country"> },
  user: Pick<User, "country" | "stateCode">,
  details: BillingDetails | null,
): TaxLocation | null {
  return chargedTaxLocation(config.seller.country, taxBuyerOf(user, details));
}

/** Where the account's charges are taxed, its details read from the database (renewals). */
export async function taxLocationOf(
  q: Queryable,
  config: { seller: Pick<Config["seller"], "country"> },
  user: User,
): Promise<TaxLocation | null> {
  return taxLocationFor(config, user, await BillingDetailsTable.get(q, user.id));
}

function taxLabel(user: Pick<User, "country" | "stateCode">): string {
  const where = locationOf(user);
  if (where.countryCode === "US") {
    return where.stateName ? `Sales tax (${where.stateName})` : "Sales tax";
  }
  return `VAT (${countryName(where.countryCode)})`;
}

const BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
};

export function paymentMethodLabel(
  user: Pick<User, "cardBrand" | "cardLast4">,
  processor: Order["processor"],
  total: number,
): string {
  if (total === 0) return "No payment due";
  if (processor === "paypal") return "PayPal";
  if (user.cardBrand && user.cardLast4) {
    return `${BRANDS[user.cardBrand.toLowerCase()] ?? user.cardBrand} ending ${user.cardLast4}`;
  }
  return "Card";
}

export type ChargeFacts = {
  order: Order;
  user: User;
  /** The order summary's lines (or a renewal's), adding up to order.subTotal. */
  lines: readonly DocumentLine[];
  ratePercent: number;
};

export const documentPath = (number: string, format: "pdf" | "html") =>
  `/api/5/invoices/${encodeURIComponent(number)}.${format}`;

/** Issues the invoice of a recorded charge, inside its transaction, and queues the receipt. */
export async function issueInvoice(
  tx: Queryable,
  deps: InvoiceDeps,
  facts: ChargeFacts,
  options: { receipt: boolean } = { receipt: true },
): Promise<StoredInvoice> {
  const { order, user } = facts;
  const details = await BillingDetailsTable.get(tx, user.id);
  const taken = await Invoices.nextNumber(tx, "invoice", order.createdAt);
  const document = invoiceDocument({
    number: taken.number,
    issuedAt: order.createdAt,
    orderId: order.id,
    servicePeriod:
      order.kind === "plan" && order.periodEnd !== null && order.periodEnd > order.periodStart
        ? { start: order.periodStart, end: order.periodEnd }
        : null,
    seller: sellerParty(deps.config),
    buyer: buyerParty(user, details),
    lines: facts.lines,
    subTotal: order.subTotal,
    ratePercent: facts.ratePercent,
    tax: order.salesTax,
    total: order.total,
    amountPaid: order.total,
    paymentMethod: paymentMethodLabel(user, order.processor, order.total),
    treatment: treatmentFor(deps.config, user, details),
    taxLabel: taxLabel(user),
  });
  const stored: StoredInvoice = {
    number: taken.number,
    series: taken.series,
    sequence: taken.sequence,
    kind: "invoice",
    userId: user.id,
    orderId: order.id,
    refersTo: null,
    refundRef: null,
    creditedBy: null,
    total: order.total,
    document,
    issuedAt: order.createdAt,
  };
  await Invoices.insert(tx, stored);
  if (options.receipt) await deps.mailer.queue(tx, receiptMail(user, document, deps.config));
  return stored;
}

/** What a receipt lists of its document: each line, the tax of each rate, the total, the mentions. */
export function receiptBreakdown(doc: InvoiceDocument): string[] {
  return [
    ...doc.lines.map((line) => `${line.label}: ${formatUsd(line.amount)}`),
    ...doc.taxes.map(
      (t) => `${t.label} ${t.ratePercent} % on ${formatUsd(t.taxable)}: ${formatUsd(t.tax)}`,
    ),
    `Total: ${formatUsd(doc.total)}`,
    ...doc.notes,
  ];
}

/** The receipt of a charge or a refund: what was paid, for what, and where its document is. */
export function receiptMail(
  to: Pick<User, "email" | "firstName">,
  doc: InvoiceDocument,
  config: Pick<Config, "publicBaseUrl" | "seller">,
): Mail {
  const credit = doc.kind === "credit_note";
  const base = config.publicBaseUrl;
  return {
    to: to.email,
    subject: credit
      ? `Refund receipt: ${formatUsd(-doc.total)} (credit note ${doc.number})`
      : `Receipt: ${formatUsd(doc.total)} paid (invoice ${doc.number})`,
    text: [
      `Hello ${to.firstName},`,
      "",
      credit
        ? `We have refunded ${formatUsd(-doc.total)} to your ${doc.paymentMethod === "PayPal" ? "PayPal account" : "payment method"}: credit note ${doc.number} credits invoice ${doc.refersTo}.`
        : `Thank you: ${formatUsd(doc.total)} was paid on ${formatDate(doc.issuedAt)} with ${doc.paymentMethod}.`,
      "",
      ...receiptBreakdown(doc),
      "",
      `Order ${doc.orderId}. ${credit ? "Credit note" : "Invoice"} ${doc.number} (PDF): ${base}${documentPath(doc.number, "pdf")}`,
      `Also readable in your browser: ${base}${documentPath(doc.number, "html")}`,
      "",
      `${config.seller.name}`,
    ].join("\n"),
  };
}

/**
 * The receipt of a refund that no credit note documents: its order has no invoice (a trial, or an
 * order from before invoices were issued), or its invoice is credited in full already. Every
 * refund has its receipt (issue 23 item 4); this one names the order instead of a document.
 */
export function refundReceiptMail(
  to: Pick<User, "email" | "firstName">,
  refund: { orderId: string; amountCents: number; at: number; processor: Order["processor"] },
  config: Pick<Config, "seller">,
): Mail {
  const amount = formatUsd(refund.amountCents);
  return {
    to: to.email,
    subject: `Refund receipt: ${amount} (order ${refund.orderId})`,
    text: [
      `Hello ${to.firstName},`,
      "",
      `We have refunded ${amount} to your ${refund.processor === "paypal" ? "PayPal account" : "payment method"} on ${formatDate(refund.at)}, for order ${refund.orderId}.`,
      "",
      `${config.seller.name}`,
    ].join("\n"),
  };
}

/**
 * The credit note of a refund (the seam of COMMON.md: the refunds service calls it in the
 * transaction that records the refund). `amountCents` is what was refunded, tax included; a
 * refund recorded twice (the same provider refund id) makes one credit note. Returns null when
 * the order has no invoice (a trial, or an order from before invoices were issued).
 */
export async function issueCreditNote(
  tx: Queryable,
  refund: { orderId: string; amountCents: number; refundId: string; at: number },
  deps: InvoiceDeps,
): Promise<StoredInvoice | null> {
  const already = await Invoices.byRefundRef(tx, refund.refundId);
  if (already) return already;
  const invoice = await Invoices.currentForOrder(tx, refund.orderId);
  if (!invoice) return null;
  const creditable = invoice.total + (await Invoices.creditedOf(tx, invoice.number));
  const amount = Math.min(refund.amountCents, creditable);
  if (amount <= 0) return null;
  const taken = await Invoices.nextNumber(tx, "credit_note", refund.at);
  const document = creditNoteDocument(invoice.document, {
    number: taken.number,
    issuedAt: refund.at,
    amount,
    reason: "refund",
  });
  const stored: StoredInvoice = {
    number: taken.number,
    series: taken.series,
    sequence: taken.sequence,
    kind: "credit_note",
    userId: invoice.userId,
    orderId: invoice.orderId,
    refersTo: invoice.number,
    refundRef: refund.refundId,
    creditedBy: null,
    total: document.total,
    document,
    issuedAt: refund.at,
  };
  await Invoices.insert(tx, stored);
  const user = await Users.byId(tx, invoice.userId);
  if (user) await deps.mailer.queue(tx, receiptMail(user, document, deps.config));
  return stored;
}

/**
 * After the buyer's details change (issue 23 item 3): each invoice already issued is never
 * edited; it is credited in full by a credit note and issued again, with a new number, naming the
 * buyer as they are now. Its figures stay those charged (a change of VAT id does not reprice a
 * past charge). Returns the new invoices' numbers.
 */
export async function reissueInvoices(tx: Queryable, user: User, at: number): Promise<string[]> {
  const details = await BillingDetailsTable.get(tx, user.id);
  const buyer = buyerParty(user, details);
  const made: string[] = [];
  for (const invoice of await Invoices.openInvoicesOf(tx, user.id)) {
    if (invoice.total + (await Invoices.creditedOf(tx, invoice.number)) !== invoice.total) continue;
    if (JSON.stringify(invoice.document.buyer) === JSON.stringify(buyer)) continue;
    const credit = await Invoices.nextNumber(tx, "credit_note", at);
    const creditDoc = creditNoteDocument(invoice.document, {
      number: credit.number,
      issuedAt: at,
      amount: invoice.total,
      reason: "re-issued with the buyer's new details",
    });
    await Invoices.insert(tx, {
      number: credit.number,
      series: credit.series,
      sequence: credit.sequence,
      kind: "credit_note",
      userId: user.id,
      orderId: invoice.orderId,
      refersTo: invoice.number,
      refundRef: null,
      creditedBy: null,
      total: creditDoc.total,
      document: creditDoc,
      issuedAt: at,
    });
    const fresh = await Invoices.nextNumber(tx, "invoice", at);
    const doc: InvoiceDocument = {
      ...invoice.document,
      number: fresh.number,
      issuedAt: at,
      buyer,
      notes: [...invoice.document.notes, `Replaces invoice ${invoice.number}.`],
    };
    await Invoices.insert(tx, {
      ...invoice,
      number: fresh.number,
      series: fresh.series,
      sequence: fresh.sequence,
      creditedBy: null,
      document: doc,
      issuedAt: at,
    });
    await Invoices.markCredited(tx, invoice.number, credit.number);
    made.push(fresh.number);
  }
  return made;
}

/** The invoice of a purchase: its lines and rate are the order summary's it was charged by. */
export function invoiceOrder(
  tx: Queryable,
  deps: InvoiceDeps,
  input: { order: Order; summary: OrderSummary; user: User },
): Promise<StoredInvoice> {
  return issueInvoice(tx, deps, {
    order: input.order,
    user: input.user,
    lines: input.summary.lines,
    ratePercent: input.summary.taxRates[0]?.ratePercent ?? 0,
  });
}
