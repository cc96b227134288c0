// What an invoice or a credit note says (issue 23 item 2), as data: built once when it is issued
// and stored as it is, so that the PDF and the HTML page show the same thing on any later day,
// whatever the catalogue, the settings or the buyer's details have become since. Every amount
// comes from the pricing module's order summary (or a renewal's charge): nothing here prices.
import type { PriceLine } from "../pricing/lines.ts";
import { mulDivRoundHalfUp } from "../pricing/money.ts";
import type { DocumentKind } from "./numbering.ts";
import type { TaxTreatment } from "./tax-treatment.ts";

export type Party = {
  /** The person's or organisation's name. */
  name: string;
  /** For an organisation bought for by a person: that person (shown as "Attn."). */
  contact: string | null;
  /** Address lines, without the country. */
  address: string[];
  /** ISO 3166 alpha-2. */
  country: string;
  /** VAT id or other tax id, as given (normalised when it is an EU VAT id). */
  taxId: string | null;
  email: string | null;
};

export type DocumentLine = {
  kind: PriceLine["kind"] | "renewal" | "credit";
  label: string;
  amount: number;
};

/** The tax of one rate: the rate, the amount it applies to, and the tax. */
export type TaxLine = { label: string; ratePercent: number; taxable: number; tax: number };

export type InvoiceDocument = {
  kind: DocumentKind;
  number: string;
  /** A credit note: the invoice it credits. */
  refersTo: string | null;
  issuedAt: number;
  orderId: string;
  /** What the charge pays for; null for a one-off purchase (an export). */
  servicePeriod: { start: number; end: number } | null;
  seller: Party;
  buyer: Party;
  lines: DocumentLine[];
  subTotal: number;
  taxes: TaxLine[];
  taxTotal: number;
  total: number;
  amountPaid: number;
  /** "Visa ending 4242", "PayPal", or "No payment due". */
  paymentMethod: string;
  currency: "USD";
  /** Legal mentions (reverse charge) and what a credit note is for. */
  notes: string[];
};

export type InvoiceFacts = {
  number: string;
  issuedAt: number;
  orderId: string;
  servicePeriod: { start: number; end: number } | null;
  seller: Party;
  buyer: Party;
  /** The order summary's lines (plan, essentials, seats, discount, credit, add-ons). */
  lines: readonly DocumentLine[];
  subTotal: number;
  ratePercent: number;
  tax: number;
  total: number;
  amountPaid: number;
  paymentMethod: string;
  treatment: TaxTreatment;
  /** "Sales tax (California)", "VAT (France)". */
  taxLabel: string;
};

/** Thrown when figures handed in do not add up: an invoice that does not add up is never issued. */
export class InvoiceMismatch extends Error {
  override name = "InvoiceMismatch";
}

const sumLines = (lines: readonly DocumentLine[]) => lines.reduce((sum, l) => sum + l.amount, 0);

export function invoiceDocument(facts: InvoiceFacts): InvoiceDocument {
  if (sumLines(facts.lines) !== facts.subTotal) {
    throw new InvoiceMismatch(
      `Invoice ${facts.number}: its lines add up to ${sumLines(facts.lines)}, not its subtotal ${facts.subTotal}.`,
    );
  }
  if (facts.subTotal + facts.tax !== facts.total) {
    throw new InvoiceMismatch(
      `Invoice ${facts.number}: subtotal ${facts.subTotal} and tax ${facts.tax} are not its total ${facts.total}.`,
    );
  }
  const reverse = facts.treatment.kind === "reverse_charge";
  if (reverse && facts.tax !== 0) {
    throw new InvoiceMismatch(`Invoice ${facts.number}: a reverse charge carries no VAT.`);
  }
  return {
    kind: "invoice",
    number: facts.number,
    refersTo: null,
    issuedAt: facts.issuedAt,
    orderId: facts.orderId,
    servicePeriod: facts.servicePeriod,
    seller: facts.seller,
    buyer: facts.buyer,
    lines: [...facts.lines],
    subTotal: facts.subTotal,
    taxes: [
      {
        label: reverse ? "VAT (reverse charge)" : facts.taxLabel,
        ratePercent: reverse ? 0 : facts.ratePercent,
        taxable: facts.subTotal,
        tax: facts.tax,
      },
    ],
    taxTotal: facts.tax,
    total: facts.total,
    amountPaid: facts.amountPaid,
    paymentMethod: facts.paymentMethod,
    currency: "USD",
    notes: facts.treatment.kind === "reverse_charge" ? [facts.treatment.mention] : [],
  };
}

/**
 * A credit note for `amount` cents (tax included) of `invoice`: the whole of it, or part of it
 * (a partial refund). Its figures are negative, so that an invoice and its credit notes add up to
 * what the buyer paid in the end; the tax is credited at the invoice's rates in proportion.
 */
export function creditNoteDocument(
  invoice: InvoiceDocument,
  input: { number: string; issuedAt: number; amount: number; reason: string; buyer?: Party },
): InvoiceDocument {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0 || input.amount > invoice.total) {
    throw new InvoiceMismatch(
      `A credit note of ${invoice.number} credits 1 to ${invoice.total} cents; got ${input.amount}.`,
    );
  }
  const whole = input.amount === invoice.total;
  // One rate per invoice (the order summary's combined rate): its tax is credited in proportion,
  // and the rest of the amount is the credited net, which that rate was charged on.
  const [rate] = invoice.taxes;
  if (rate === undefined || invoice.taxes.length !== 1) {
    throw new InvoiceMismatch(
      `Invoice ${invoice.number} has ${invoice.taxes.length} tax rates, not one.`,
    );
  }
  // (0 - x, not -x: a credit of no tax is 0, not -0.)
  const taxTotal =
    0 - (whole ? rate.tax : mulDivRoundHalfUp(rate.tax, input.amount, invoice.total));
  const subTotal = -input.amount - taxTotal;
  const taxes = [{ ...rate, taxable: subTotal, tax: taxTotal }];
  return {
    ...invoice,
    kind: "credit_note",
    number: input.number,
    refersTo: invoice.number,
    issuedAt: input.issuedAt,
    buyer: input.buyer ?? invoice.buyer,
    lines: whole
      ? invoice.lines.map((line) => ({ ...line, amount: -line.amount }))
      : [
          {
            kind: "credit",
            label: `Partial credit of invoice ${invoice.number}`,
            amount: subTotal,
          },
        ],
    subTotal,
    taxes,
    taxTotal,
    total: -input.amount,
    amountPaid: -input.amount,
    notes: [`Credits invoice ${invoice.number}: ${input.reason}`, ...invoice.notes],
  };
}
