// Queries of invoices, credit notes and their counters (migration 17, decisions 0043 and 0062). A
// number is taken by the same transaction that stores its document (for a charge's invoice, the
// numbering pass that takes it from waiting_invoices): the counter row's update holds a
// row lock on PostgreSQL (a second server waits, or its serializable transaction is retried) and
// SQLite has one writer, so two documents never share a number; and a transaction that rolls
// back takes its number back with it, so none is ever skipped. Invoices are written with Kysely's
// typed builder (decision 0082), as are the billing details shown on them.

import { type Selectable, sql } from "kysely";
import type { InvoiceDocument } from "../../domain/invoices/document.ts";
import {
  type DocumentKind,
  formatDocumentNumber,
  seriesFor,
} from "../../domain/invoices/numbering.ts";
import { bool, type Queryable } from "./db.ts";
import type { BillingDetailsTable as BillingDetailsRow, InvoicesTable } from "./schema-payments.ts";

export type StoredInvoice = {
  number: string;
  series: string;
  sequence: number;
  kind: DocumentKind;
  userId: number;
  orderId: string;
  refersTo: string | null;
  refundRef: string | null;
  creditedBy: string | null;
  total: number;
  document: InvoiceDocument;
  issuedAt: number;
};

type Row = Selectable<InvoicesTable>;

function fromRow(r: Row): StoredInvoice {
  return {
    number: r.number,
    series: r.series,
    sequence: r.sequence,
    kind: r.kind as DocumentKind,
    userId: r.user_id,
    orderId: r.order_id,
    refersTo: r.refers_to,
    refundRef: r.refund_ref,
    creditedBy: r.credited_by,
    total: r.total,
    document: JSON.parse(r.document) as InvoiceDocument,
    issuedAt: r.issued_at,
  };
}

function toRow(i: StoredInvoice): Row {
  return {
    number: i.number,
    series: i.series,
    sequence: i.sequence,
    kind: i.kind,
    user_id: i.userId,
    order_id: i.orderId,
    refers_to: i.refersTo,
    refund_ref: i.refundRef,
    credited_by: i.creditedBy,
    total: i.total,
    document: JSON.stringify(i.document),
    issued_at: i.issuedAt,
  };
}

const invoices = (q: Queryable) => q.kysely.selectFrom("invoices").selectAll();

/** Documents that are invoices no credit note has replaced. */
const current = (q: Queryable) =>
  invoices(q).where("kind", "=", "invoice").where("credited_by", "is", null);

export const Invoices = {
  /**
   * The next number of the series of `kind` at `atMs`, taken inside `tx`: one statement that
   * creates the series' counter at 1 or adds 1 to it, and answers the number it now holds.
   */
  async nextNumber(
    tx: Queryable,
    kind: DocumentKind,
    atMs: number,
  ): Promise<{ series: string; sequence: number; number: string }> {
    const series = seriesFor(kind, atMs);
    const [sequence = 0] = await Invoices.takeNumbers(tx, series, 1);
    return { series, sequence, number: formatDocumentNumber(series, sequence) };
  },
  /**
   * The next `count` running numbers of `series`, taken inside `tx` by one statement (a
   * numbering pass takes a batch's numbers at once: one counter update per batch).
   */
  async takeNumbers(tx: Queryable, series: string, count: number): Promise<number[]> {
    const row = await tx.kysely
      .insertInto("invoice_counters")
      .values({ series, last_number: count })
      .onConflict((c) =>
        c.column("series").doUpdateSet((e) => ({
          last_number: sql<number>`${e.ref("invoice_counters.last_number")} + ${count}`,
        })),
      )
      .returning("last_number")
      .executeTakeFirst();
    if (row === undefined) throw new Error(`No number was taken for series ${series}.`);
    const last = Number(row.last_number);
    return Array.from({ length: count }, (_, i) => last - count + 1 + i);
  },
  async insert(tx: Queryable, invoice: StoredInvoice): Promise<void> {
    await Invoices.insertAll(tx, [invoice]);
  },
  /** Several documents in one statement (a numbering pass's batch). */
  async insertAll(tx: Queryable, documents: readonly StoredInvoice[]): Promise<void> {
    if (documents.length === 0) return;
    await tx.kysely.insertInto("invoices").values(documents.map(toRow)).execute();
  },
  async markCredited(tx: Queryable, number: string, creditNote: string): Promise<void> {
    await tx.kysely
      .updateTable("invoices")
      .set({ credited_by: creditNote })
      .where("number", "=", number)
      .where("credited_by", "is", null)
      .execute();
  },
  async byNumber(q: Queryable, number: string): Promise<StoredInvoice | null> {
    const row = await invoices(q).where("number", "=", number).executeTakeFirst();
    return row ? fromRow(row) : null;
  },
  async byRefundRef(q: Queryable, refundRef: string): Promise<StoredInvoice | null> {
    const row = await invoices(q).where("refund_ref", "=", refundRef).executeTakeFirst();
    return row ? fromRow(row) : null;
  },
  /** The invoice of an order that no credit note has replaced (a re-issue makes a new one). */
  async currentForOrder(q: Queryable, orderId: string): Promise<StoredInvoice | null> {
    const row = await current(q)
      .where("order_id", "=", orderId)
      .orderBy("issued_at", "desc")
      .orderBy("sequence", "desc")
      .limit(1)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  },
  /** The documents of an order, oldest first. */
  async forOrder(q: Queryable, orderId: string): Promise<StoredInvoice[]> {
    const rows = await invoices(q)
      .where("order_id", "=", orderId)
      .orderBy("issued_at")
      .orderBy("kind")
      .orderBy("sequence")
      .execute();
    return rows.map(fromRow);
  },
  /** The current invoice number of each of a user's orders (order id → number). */
  async currentNumbersOf(q: Queryable, userId: number): Promise<Map<string, string>> {
    const rows = await current(q)
      .where("user_id", "=", userId)
      .orderBy("issued_at")
      .orderBy("sequence")
      .execute();
    return new Map(rows.map((row) => [row.order_id, row.number]));
  },
  /**
   * A page of a user's documents, newest first (issued_at, then number, both descending): those
   * after `after` (the last of the previous page), at most `limit`.
   */
  async forUser(
    q: Queryable,
    userId: number,
    limit: number,
    after: { issuedAt: number; number: string } | null = null,
  ): Promise<StoredInvoice[]> {
    let page = invoices(q).where("user_id", "=", userId);
    if (after) {
      page = page.where((w) =>
        w.or([
          w("issued_at", "<", after.issuedAt),
          w.and([w("issued_at", "=", after.issuedAt), w("number", "<", after.number)]),
        ]),
      );
    }
    const rows = await page
      .orderBy("issued_at", "desc")
      .orderBy("number", "desc")
      .limit(limit)
      .execute();
    return rows.map(fromRow);
  },
  /** A user's invoices not replaced by a credit note (what a change of details re-issues). */
  async openInvoicesOf(q: Queryable, userId: number): Promise<StoredInvoice[]> {
    const rows = await current(q)
      .where("user_id", "=", userId)
      .orderBy("issued_at")
      .orderBy("sequence")
      .execute();
    return rows.map(fromRow);
  },
  /** The sum of the credit notes of an invoice (negative), to cap what is credited. */
  async creditedOf(q: Queryable, invoiceNumber: string): Promise<number> {
    const row = await q.kysely
      .selectFrom("invoices")
      .select((e) => e.fn.sum<number | null>("total").as("n"))
      .where("refers_to", "=", invoiceNumber)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },
};

export type BillingDetails = {
  userId: number;
  organisation: string | null;
  taxId: string | null;
  /** The country the tax id belongs to (an EU VAT id's, or the billing country's). */
  taxIdCountry: string | null;
  /** An EU VAT id that passed its country's format and check digits (vat-id.ts). */
  taxIdValid: boolean;
  street: string | null;
  city: string | null;
  updatedAt: number;
};

/** A billing_details row as a record (also from the session lookup's join: db/users.ts). */
export function billingDetailsOf(r: Selectable<BillingDetailsRow>): BillingDetails {
  return {
    userId: r.user_id,
    organisation: r.organisation,
    taxId: r.tax_id,
    taxIdCountry: r.tax_id_country,
    taxIdValid: bool(r.tax_id_valid),
    street: r.street,
    city: r.city,
    updatedAt: r.updated_at,
  };
}

export const BillingDetailsTable = {
  async get(q: Queryable, userId: number): Promise<BillingDetails | null> {
    const row = await q.kysely
      .selectFrom("billing_details")
      .selectAll()
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row ? billingDetailsOf(row) : null;
  },
  async put(tx: Queryable, value: BillingDetails): Promise<void> {
    await tx.kysely.deleteFrom("billing_details").where("user_id", "=", value.userId).execute();
    await tx.kysely
      .insertInto("billing_details")
      .values({
        user_id: value.userId,
        organisation: value.organisation,
        tax_id: value.taxId,
        tax_id_country: value.taxIdCountry,
        tax_id_valid: value.taxIdValid ? 1 : 0,
        street: value.street,
        city: value.city,
        updated_at: value.updatedAt,
      })
      .execute();
  },
};
