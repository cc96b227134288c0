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

/** The most documents one page of the list holds, and how many it holds when not asked. */
export const INVOICE_DOCUMENTS_PAGE_MAX = 200;

/**
 * A page of the account's documents (issue 33 item 12): `GET /api/5/invoices` is the newest page;
 * `?cursor=` the answer's `nextCursor` is the page after it; `?limit=` how many (1 to 200,
 * default 200). Pages follow the order newest first and never skip or repeat a document, however
 * many are issued meanwhile.
 */
export const InvoiceDocumentQuery = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,15}_[A-Za-z0-9-]{1,40}$/, {
      error: "the cursor must be a nextCursor of this list",
    })
    .optional(),
  limit: z.coerce
    .number({ error: "the limit must be a whole number from 1 to 200" })
    .int({ error: "the limit must be a whole number from 1 to 200" })
    .min(1, { error: "the limit must be a whole number from 1 to 200" })
    .max(INVOICE_DOCUMENTS_PAGE_MAX, { error: "the limit must be a whole number from 1 to 200" })
    .optional(),
});

export const InvoiceDocumentList = z.object({
  documents: z.array(InvoiceDocumentEntry),
  /** The `cursor` of the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});

/** The organisation a person buys for, and its tax id (an EU VAT id is checked offline). */
export const BillingDetailsRequest = z.object({
  organisation: typedText({ max: 200 }).optional(),
  taxId: typedText({ max: 40 }).optional(),
  street: typedText({ max: 200 }).optional(),
  city: typedText({ max: 100 }).optional(),
  /**
   * Issue the account's earlier invoices again with these details (a credit note each first): only
   * invoices that name the buyer otherwise, so asking again without a change re-issues nothing;
   * limited per account (`reissuePerUser`, 429 beyond).
   */
  reissue: z.boolean().optional(),
});

/** The billing details body as a caller writes it (the billing store). */
export type BillingDetailsBody = z.input<typeof BillingDetailsRequest>;
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
