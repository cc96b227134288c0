// The e-mails that carry a document (issue 23): a charge's receipt, a refund's, and a renewal's
// e-mail, which is its receipt. A charge's receipt names its invoice's number, so it is queued by
// the numbering pass that gives the number (services/invoice-numbering.ts, decision 0062).
import type { InvoiceDocument } from "../../domain/invoices/document.ts";
import { formatDate } from "../../domain/invoices/printable.ts";
import { formatUsd } from "../../domain/pricing/index.ts";
import type { Config } from "../config.ts";
import type { StoredInvoice } from "../db/invoices.ts";
import type { Order } from "../db/orders.ts";
import type { User } from "../db/users.ts";
import type { WaitingReceipt } from "../db/waiting-invoices.ts";
import type { Mail } from "../mail/mailer.ts";
import { renewedMail } from "./renewal-emails.ts";

export const documentPath = (number: string, format: "pdf" | "html") =>
  `/api/5/invoices/${encodeURIComponent(number)}.${format}`;

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

/** A renewal's invoice as its receipt e-mail names it (renewal-emails.ts renewedMail). */
function receiptInvoice(
  publicBaseUrl: string,
  invoice: StoredInvoice,
): { number: string; breakdown: string[]; url: string } {
  return {
    number: invoice.number,
    breakdown: receiptBreakdown(invoice.document),
    url: `${publicBaseUrl}${documentPath(invoice.number, "pdf")}`,
  };
}

/** The e-mail a waiting invoice asked for, once it has its number. */
export function waitingReceiptMail(
  receipt: WaitingReceipt,
  invoice: StoredInvoice,
  config: Pick<Config, "publicBaseUrl" | "seller">,
): Mail {
  if (receipt.kind === "receipt") return receiptMail(receipt, invoice.document, config);
  return renewedMail(receipt, {
    invoice: receiptInvoice(config.publicBaseUrl, invoice),
    planName: receipt.planName,
    total: receipt.total,
    periodStart: receipt.periodStart,
    periodEnd: receipt.periodEnd,
    processor: receipt.processor,
    recovered: receipt.recovered,
    nextRenewal: receipt.nextRenewal ?? null,
  });
}
