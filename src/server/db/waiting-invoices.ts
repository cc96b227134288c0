// Queries of the invoices that wait for their number (migration 24, decision 0062). A charge's
// transaction records its invoice here, its document complete but for the number; a numbering
// pass (services/invoice-numbering.ts) takes the waiting ones out, in the order they are numbered
// in, and writes them to `invoices` with their numbers, in one short transaction. Kysely's typed
// builder (decision 0082).

import type { Selectable } from "kysely";
import type { InvoiceDocument } from "../../domain/invoices/document.ts";
import type { Queryable } from "./db.ts";
import type { WaitingInvoicesTable } from "./schema-payments.ts";

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

function fromRow(r: Selectable<WaitingInvoicesTable>): WaitingInvoice {
  return {
    orderId: r.order_id,
    userId: r.user_id,
    total: r.total,
    document: JSON.parse(r.document) as InvoiceDocument,
    receipt: r.receipt === null ? null : (JSON.parse(r.receipt) as WaitingReceipt),
    issuedAt: r.issued_at,
  };
}

/** Numbering order: issue time, then order id (a fixed order, whichever pass numbers them). */
const byTurn = (a: WaitingInvoice, b: WaitingInvoice): number =>
  a.issuedAt - b.issuedAt || (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0);

export const WaitingInvoices = {
  async insert(tx: Queryable, invoice: WaitingInvoice): Promise<void> {
    await tx.kysely
      .insertInto("waiting_invoices")
      .values({
        order_id: invoice.orderId,
        user_id: invoice.userId,
        total: invoice.total,
        document: JSON.stringify(invoice.document),
        receipt: invoice.receipt === null ? null : JSON.stringify(invoice.receipt),
        issued_at: invoice.issuedAt,
      })
      .execute();
  },
  async has(q: Queryable, orderId: string): Promise<boolean> {
    const row = await q.kysely
      .selectFrom("waiting_invoices")
      .select("order_id")
      .where("order_id", "=", orderId)
      .executeTakeFirst();
    return row !== undefined;
  },
  async anyOf(q: Queryable, userId: number): Promise<boolean> {
    const row = await q.kysely
      .selectFrom("waiting_invoices")
      .select("order_id")
      .where("user_id", "=", userId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },
  /**
   * Takes the first `limit` waiting invoices out (one statement), in numbering order. Only the
   * holder of the numbering lock calls it, in the transaction that numbers what it took.
   */
  async take(tx: Queryable, limit: number): Promise<WaitingInvoice[]> {
    const first = tx.kysely
      .selectFrom("waiting_invoices")
      .select("order_id")
      .orderBy("issued_at")
      .orderBy("order_id")
      .limit(limit);
    const rows = await tx.kysely
      .deleteFrom("waiting_invoices")
      .where("order_id", "in", first)
      .returningAll()
      .execute();
    return rows.map(fromRow).sort(byTurn);
  },
  /**
   * The numbering lock: an update of the one row of invoice_numbering, held until the caller's
   * transaction ends (on SQLite every transaction holds the database already). Counts the passes.
   */
  async lock(tx: Queryable): Promise<void> {
    const result = await tx.kysely
      .updateTable("invoice_numbering")
      .set((e) => ({ passes: e("passes", "+", 1) }))
      .where("id", "=", 1)
      .executeTakeFirst();
    // Without its row nothing would keep two passes apart: number nothing rather than race.
    if (Number(result.numUpdatedRows) !== 1) {
      throw new Error("The invoice numbering lock's row is missing.");
    }
  },
};
