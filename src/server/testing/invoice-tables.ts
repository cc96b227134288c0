// The invoices, their numbering lock and the invoices waiting for a number, as the invoice
// tests read and arrange them: Kysely's typed builder over db/schema.ts, like tables.ts (which
// has the rest). Test-only.
import type { Queryable } from "../db/db.ts";

const count = (row: { n: number | string | bigint } | undefined): number => Number(row?.n ?? 0);

/** The invoices (not credit notes) of some orders, in the order of their numbers. */
export async function invoicesOfOrders(
  q: Queryable,
  orderIds: readonly string[],
): Promise<{ order_id: string; number: string; sequence: number }[]> {
  if (orderIds.length === 0) return [];
  return q.kysely
    .selectFrom("invoices")
    .select(["order_id", "number", "sequence"])
    .where("kind", "=", "invoice")
    .where("order_id", "in", orderIds)
    .orderBy("sequence")
    .execute();
}

/** Every invoice (not credit note): its order, series and sequence. */
export async function allInvoices(
  q: Queryable,
): Promise<{ order_id: string; sequence: number; series: string }[]> {
  return q.kysely
    .selectFrom("invoices")
    .select(["order_id", "sequence", "series"])
    .where("kind", "=", "invoice")
    .execute();
}

/** The ids of the orders that have an invoice number. */
export async function invoicedOrderIds(q: Queryable): Promise<{ id: string }[]> {
  return q.kysely.selectFrom("orders").select("id").where("invoice_id", "is not", null).execute();
}

/** How many invoices wait for their number. */
export async function countWaitingInvoices(q: Queryable): Promise<number> {
  const row = await q.kysely
    .selectFrom("waiting_invoices")
    .select((e) => e.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return count(row);
}

/** How many numbering passes have run (the numbering lock's counter). */
export async function numberingPasses(q: Queryable): Promise<number> {
  const row = await q.kysely.selectFrom("invoice_numbering").select("passes").executeTakeFirst();
  return Number(row?.passes);
}

/** Takes the numbering lock's row away, so that every numbering pass fails until it is back. */
export async function removeNumberingLock(q: Queryable): Promise<void> {
  await q.kysely.deleteFrom("invoice_numbering").execute();
}

/** Puts the numbering lock's row back, as migration 24 made it. */
export async function restoreNumberingLock(q: Queryable): Promise<void> {
  await q.kysely.insertInto("invoice_numbering").values({ id: 1, passes: 0 }).execute();
}

/** The document an order's invoice waits with for its number, as stored (JSON), if it waits. */
export async function waitingInvoiceDocument(
  q: Queryable,
  orderId: string,
): Promise<string | undefined> {
  const row = await q.kysely
    .selectFrom("waiting_invoices")
    .select("document")
    .where("order_id", "=", orderId)
    .executeTakeFirst();
  return row?.document;
}

/** The sequence numbers of one invoice series, in order. */
export async function sequencesOfSeries(q: Queryable, series: string): Promise<number[]> {
  const rows = await q.kysely
    .selectFrom("invoices")
    .select("sequence")
    .where("series", "=", series)
    .orderBy("sequence")
    .execute();
  return rows.map((r) => Number(r.sequence));
}

/** Removes an order's documents, as for an order bought before invoices were issued. */
export async function deleteInvoicesOfOrder(q: Queryable, orderId: string): Promise<void> {
  await q.kysely.deleteFrom("invoices").where("order_id", "=", orderId).execute();
}
