// Invoices, credit notes and receipts (issue 23). An invoice is recorded in the transaction that
// records the charge it documents (a purchase's commit, a renewal's, a PayPal approval's), its
// document complete but for its number: a charge recorded has its invoice, and a charge rolled
// back has none. Its number and its receipt come from the numbering pass that follows the commit
// (invoice-numbering.ts, decision 0062). A credit note and a re-issue take their numbers in
// their own transaction, as they are rare and name the number of the invoice they credit.
import {
  creditNoteDocument,
  type DocumentLine,
  type InvoiceDocument,
  invoiceDocument,
  type Party,
} from "../../domain/invoices/document.ts";
import { countryName } from "../../domain/invoices/printable.ts";
import {
  chargedTaxLocation,
  type TaxBuyer,
  type TaxTreatment,
  taxTreatment,
} from "../../domain/invoices/tax-treatment.ts";
import { type OrderSummary, type TaxLocation, taxName } from "../../domain/pricing/index.ts";
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
import { type ReceiptKind, WaitingInvoices } from "../db/waiting-invoices.ts";
import type { Account } from "./account.ts";
import { type InvoiceDeps, numberWaitingIn } from "./invoice-numbering.ts";
import { locationOf } from "./location.ts";
import { receiptMail } from "./receipts.ts";

export type { InvoiceDeps } from "./invoice-numbering.ts";

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
function buyerParty(user: User, details: BillingDetails | null): Party {
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

/** "Sales tax (California)", "VAT (France)", "GST (Australia)": as the country calls it. */
function taxLabel(user: Pick<User, "country" | "stateCode">): string {
  const where = locationOf(user);
  const name = taxName(where.countryCode);
  if (where.countryCode === "US") return where.stateName ? `${name} (${where.stateName})` : name;
  return `${name} (${countryName(where.countryCode)})`;
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
  /**
   * The billing details the charge was priced on (its tax treatment came from them), so that
   * the invoice shows the buyer and the treatment its amounts were worked out for.
   */
  billing: BillingDetails | null;
  /** The order summary's lines (or a renewal's), adding up to order.subTotal. */
  lines: readonly DocumentLine[];
  ratePercent: number;
};

/**
 * Records the invoice of a charge inside its transaction, its document complete but for its
 * number: the numbering pass after the commit gives the number and queues `receipt` (decision
 * 0062). null: no receipt (the caller's own e-mail tells of the charge).
 */
export async function issueInvoice(
  tx: Queryable,
  deps: InvoiceDeps,
  facts: ChargeFacts,
  receipt: ReceiptKind | null = { kind: "receipt" },
): Promise<void> {
  const { order, user, billing: details } = facts;
  const document = invoiceDocument({
    // Given by the numbering pass; the rest of the document is fixed here.
    number: "",
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
  await WaitingInvoices.insert(tx, {
    orderId: order.id,
    userId: user.id,
    total: order.total,
    document,
    receipt: receipt && { ...receipt, email: user.email, firstName: user.firstName },
    issuedAt: order.createdAt,
  });
}

/**
 * The credit note of a refund (the refunds service, services/refunds.ts, calls it in the
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
  // An invoice still waiting for its number (its pass has not run yet, or failed) is numbered
  // first, in this transaction: a credit note names the number of the invoice it credits.
  if (await WaitingInvoices.has(tx, refund.orderId)) await numberWaitingIn(tx, deps);
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
export async function reissueInvoices(
  tx: Queryable,
  deps: InvoiceDeps,
  user: User,
  at: number,
): Promise<string[]> {
  // Invoices still waiting are numbered first, so the re-issue sees each of the account's.
  if (await WaitingInvoices.anyOf(tx, user.id)) await numberWaitingIn(tx, deps);
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

/**
 * The invoice of a purchase: its lines, rate and buyer are those of the order summary it was
 * charged by (the account it was priced for: its user and billing details).
 */
export function invoiceOrder(
  tx: Queryable,
  deps: InvoiceDeps,
  input: { order: Order; summary: OrderSummary; account: Pick<Account, "user" | "billing"> },
): Promise<void> {
  return issueInvoice(tx, deps, {
    order: input.order,
    user: input.account.user,
    billing: input.account.billing,
    lines: input.summary.lines,
    ratePercent: input.summary.taxRates[0]?.ratePercent ?? 0,
  });
}
