// Queries of invoices, credit notes and their counters (migration 17, decisions 0043 and 0062). A
// number is taken by the same transaction that stores its document (for a charge's invoice, the
// numbering pass that takes it from waiting_invoices): the counter row's update holds a
// row lock on PostgreSQL (a second server waits, or its serializable transaction is retried) and
// SQLite has one writer, so two documents never share a number; and a transaction that rolls
// back takes its number back with it, so none is ever skipped.
import type { InvoiceDocument } from "../../domain/invoices/document.ts";
import {
  type DocumentKind,
  formatDocumentNumber,
  seriesFor,
} from "../../domain/invoices/numbering.ts";
import type { Queryable } from "./db.ts";
import { mapper } from "./records.ts";

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

const map = mapper<StoredInvoice>("invoices", {
  number: ["number", "text"],
  series: ["series", "text"],
  sequence: ["sequence", "int"],
  kind: ["kind", "text"],
  userId: ["user_id", "int"],
  orderId: ["order_id", "text"],
  refersTo: ["refers_to", "text"],
  refundRef: ["refund_ref", "text"],
  creditedBy: ["credited_by", "text"],
  total: ["total", "int"],
  document: ["document", "json"],
  issuedAt: ["issued_at", "int"],
});

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
    const row = await tx.get<{ last_number: number | bigint }>(
      `INSERT INTO invoice_counters (series, last_number) VALUES (?, ?)
       ON CONFLICT (series) DO UPDATE SET last_number = invoice_counters.last_number + ?
       RETURNING last_number`,
      [series, count, count],
    );
    if (row === undefined) throw new Error(`No number was taken for series ${series}.`);
    const last = Number(row.last_number);
    return Array.from({ length: count }, (_, i) => last - count + 1 + i);
  },
  async insert(tx: Queryable, invoice: StoredInvoice): Promise<void> {
    await Invoices.insertAll(tx, [invoice]);
  },
  /** Several documents in one statement (a numbering pass's batch). */
  async insertAll(tx: Queryable, invoices: readonly StoredInvoice[]): Promise<void> {
    const rows = invoices.map((invoice) => map.insert(invoice));
    const [first] = rows;
    if (!first) return;
    // Every row names the same columns (a StoredInvoice has no optional field).
    if (rows.some((row) => row.sql !== first.sql)) throw new Error("Rows of different columns.");
    const values = first.sql.slice(first.sql.indexOf(" VALUES ") + 8);
    await tx.run(
      `${first.sql}${`, ${values}`.repeat(rows.length - 1)}`,
      rows.flatMap((row) => row.params),
    );
  },
  async markCredited(tx: Queryable, number: string, creditNote: string): Promise<void> {
    await tx.run("UPDATE invoices SET credited_by = ? WHERE number = ? AND credited_by IS NULL", [
      creditNote,
      number,
    ]);
  },
  async byNumber(q: Queryable, number: string): Promise<StoredInvoice | null> {
    const row = await q.get("SELECT * FROM invoices WHERE number = ?", [number]);
    return row ? map.fromRow(row) : null;
  },
  async byRefundRef(q: Queryable, refundRef: string): Promise<StoredInvoice | null> {
    const row = await q.get("SELECT * FROM invoices WHERE refund_ref = ?", [refundRef]);
    return row ? map.fromRow(row) : null;
  },
  /** The invoice of an order that no credit note has replaced (a re-issue makes a new one). */
  async currentForOrder(q: Queryable, orderId: string): Promise<StoredInvoice | null> {
    const row = await q.get(
      `SELECT * FROM invoices WHERE order_id = ? AND kind = 'invoice' AND credited_by IS NULL
       ORDER BY issued_at DESC, sequence DESC LIMIT 1`,
      [orderId],
    );
    return row ? map.fromRow(row) : null;
  },
  /** The documents of an order, oldest first. */
  async forOrder(q: Queryable, orderId: string): Promise<StoredInvoice[]> {
    const rows = await q.all(
      "SELECT * FROM invoices WHERE order_id = ? ORDER BY issued_at, kind, sequence",
      [orderId],
    );
    return rows.map((row) => map.fromRow(row));
  },
  /** The current invoice number of each of a user's orders (order id → number). */
  async currentNumbersOf(q: Queryable, userId: number): Promise<Map<string, string>> {
    const rows = await q.all<{ order_id: string; number: string }>(
      `SELECT order_id, number FROM invoices
       WHERE user_id = ? AND kind = 'invoice' AND credited_by IS NULL ORDER BY issued_at, sequence`,
      [userId],
    );
    return new Map(rows.map((row) => [row.order_id, row.number]));
  },
  /** A user's documents, newest first. */
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
    const rows = after
      ? await q.all(
          `SELECT * FROM invoices WHERE user_id = ?
             AND (issued_at < ? OR (issued_at = ? AND number < ?))
           ORDER BY issued_at DESC, number DESC LIMIT ?`,
          [userId, after.issuedAt, after.issuedAt, after.number, limit],
        )
      : await q.all(
          "SELECT * FROM invoices WHERE user_id = ? ORDER BY issued_at DESC, number DESC LIMIT ?",
          [userId, limit],
        );
    return rows.map((row) => map.fromRow(row));
  },
  /** A user's invoices not replaced by a credit note (what a change of details re-issues). */
  async openInvoicesOf(q: Queryable, userId: number): Promise<StoredInvoice[]> {
    const rows = await q.all(
      `SELECT * FROM invoices WHERE user_id = ? AND kind = 'invoice' AND credited_by IS NULL
       ORDER BY issued_at, sequence`,
      [userId],
    );
    return rows.map((row) => map.fromRow(row));
  },
  /** The sum of the credit notes of an invoice (negative), to cap what is credited. */
  async creditedOf(q: Queryable, invoiceNumber: string): Promise<number> {
    const row = await q.get<{ n: number | bigint | null }>(
      "SELECT SUM(total) AS n FROM invoices WHERE refers_to = ?",
      [invoiceNumber],
    );
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

/** billing_details's columns: this table's and the session lookup's join (db/users.ts). */
export const BILLING_DETAILS_COLUMNS = {
  userId: ["user_id", "int"],
  organisation: ["organisation", "text"],
  taxId: ["tax_id", "text"],
  taxIdCountry: ["tax_id_country", "text"],
  taxIdValid: ["tax_id_valid", "bool"],
  street: ["street", "text"],
  city: ["city", "text"],
  updatedAt: ["updated_at", "int"],
} as const;

const details = mapper<BillingDetails>("billing_details", BILLING_DETAILS_COLUMNS);

export const BillingDetailsTable = {
  async get(q: Queryable, userId: number): Promise<BillingDetails | null> {
    const row = await q.get("SELECT * FROM billing_details WHERE user_id = ?", [userId]);
    return row ? details.fromRow(row) : null;
  },
  async put(tx: Queryable, value: BillingDetails): Promise<void> {
    await tx.run("DELETE FROM billing_details WHERE user_id = ?", [value.userId]);
    const { sql, params } = details.insert(value);
    await tx.run(sql, params);
  },
};
