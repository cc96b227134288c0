// Queries of the invoices that wait for their number (migration 24, decision 0062). A charge's
// transaction records its invoice here, its document complete but for the number; a numbering
// pass (services/invoice-numbering.ts) takes the waiting ones out, in the order they are numbered
// in, and writes them to `invoices` with their numbers, in one short transaction.
import type { InvoiceDocument } from "../../domain/invoices/document.ts";
import type { Queryable } from "./db.ts";
import { mapper } from "./records.ts";

/** What a waiting invoice's receipt tells besides the document: a renewal's e-mail is its receipt. */
export type ReceiptKind = { kind: "receipt" } | ({ kind: "renewal" } & RenewalFacts);

/** What a renewal's e-mail says of it (services/renewal-emails.ts renewedMail). */
export type RenewalFacts = {
  planName: string;
  total: number;
  periodStart: number;
  periodEnd: number;
  processor: "cc" | "paypal";
  recovered: boolean;
  /** The renewal after this one, as every screen names it (absent on rows stored before it). */
  nextRenewal?: { at: number; amount: number; tax: number; termMonths: number } | null;
};

/** The e-mail a waiting invoice's numbering queues: it names the number, so it waits too. */
export type WaitingReceipt = ReceiptKind & { email: string; firstName: string };

export type WaitingInvoice = {
  orderId: string;
  userId: number;
  total: number;
  /** The document as issued, its `number` empty until the numbering pass gives it. */
  document: InvoiceDocument;
  receipt: WaitingReceipt | null;
  issuedAt: number;
};

const map = mapper<WaitingInvoice>("waiting_invoices", {
  orderId: ["order_id", "text"],
  userId: ["user_id", "int"],
  total: ["total", "int"],
  document: ["document", "json"],
  receipt: ["receipt", "json"],
  issuedAt: ["issued_at", "int"],
});

/** Numbering order: issue time, then order id (a fixed order, whichever pass numbers them). */
export const byTurn = (a: WaitingInvoice, b: WaitingInvoice): number =>
  a.issuedAt - b.issuedAt || (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0);

export const WaitingInvoices = {
  async insert(tx: Queryable, invoice: WaitingInvoice): Promise<void> {
    const { sql, params } = map.insert(invoice);
    await tx.run(sql, params);
  },
  async has(q: Queryable, orderId: string): Promise<boolean> {
    const row = await q.get("SELECT 1 AS one FROM waiting_invoices WHERE order_id = ?", [orderId]);
    return row !== undefined;
  },
  async anyOf(q: Queryable, userId: number): Promise<boolean> {
    const row = await q.get("SELECT 1 AS one FROM waiting_invoices WHERE user_id = ? LIMIT 1", [
      userId,
    ]);
    return row !== undefined;
  },
  /**
   * Takes the first `limit` waiting invoices out (one statement), in numbering order. Only the
   * holder of the numbering lock calls it, in the transaction that numbers what it took.
   */
  async take(tx: Queryable, limit: number): Promise<WaitingInvoice[]> {
    const rows = await tx.all(
      `DELETE FROM waiting_invoices WHERE order_id IN (
         SELECT order_id FROM waiting_invoices ORDER BY issued_at, order_id LIMIT ?)
       RETURNING *`,
      [limit],
    );
    return rows.map((row) => map.fromRow(row)).sort(byTurn);
  },
  /**
   * The numbering lock: an update of the one row of invoice_numbering, held until the caller's
   * transaction ends (on SQLite every transaction holds the database already). Counts the passes.
   */
  async lock(tx: Queryable): Promise<void> {
    const { changes } = await tx.run(
      "UPDATE invoice_numbering SET passes = passes + 1 WHERE id = 1",
    );
    // Without its row nothing would keep two passes apart: number nothing rather than race.
    if (changes !== 1) throw new Error("The invoice numbering lock's row is missing.");
  },
};
