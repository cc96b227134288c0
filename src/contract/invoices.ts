// Invoices, credit notes and the buyer's business details (issue 23). The documents themselves
// (PDF and HTML) are files, not JSON: their paths are in each entry of the list.
import { z } from "zod";
import { Timestamp, typedText } from "./common.ts";

/** One invoice or credit note of the signed-in account. */
export const InvoiceDocumentEntry = z.object({
  number: z.string(),
  kind: z.enum(["invoice", "credit_note"]),
  /** A credit note: the invoice it credits. */
  refersTo: z.string().nullable(),
  /** An invoice a credit note has replaced (a refund, or a re-issue with new details). */
  creditedBy: z.string().nullable(),
  orderId: z.string(),
  issuedAt: Timestamp,
  /** Tax included; negative for a credit note. */
  total: z.number().int(),
  pdfUrl: z.string(),
  htmlUrl: z.string(),
  /** Whom the document is made out to, as it names them (the organisation, else the person). */
  billedTo: z.string(),
});
export type InvoiceDocumentEntry = z.output<typeof InvoiceDocumentEntry>;

export const InvoiceDocumentList = z.object({ documents: z.array(InvoiceDocumentEntry) });

/** The organisation a person buys for, and its tax id (an EU VAT id is checked offline). */
export const BillingDetailsRequest = z.object({
  organisation: typedText({ max: 200 }).optional(),
  taxId: typedText({ max: 40 }).optional(),
  street: typedText({ max: 200 }).optional(),
  city: typedText({ max: 100 }).optional(),
  /** Issue the account's earlier invoices again with these details (a credit note each first). */
  reissue: z.boolean().optional(),
});

export const BillingDetailsResponse = z.object({
  organisation: z.string().nullable(),
  taxId: z.string().nullable(),
  street: z.string().nullable(),
  city: z.string().nullable(),
  /** The EU reverse charge applies to this account's purchases (0 % VAT, with the mention). */
  reverseCharge: z.boolean(),
  /** Invoices issued again with these details (each after a credit note of the old one). */
  reissued: z.array(z.string()),
});
