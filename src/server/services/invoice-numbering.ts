// Numbering the invoices of charges (issue 19, decision 0062). A charge's transaction records its
// invoice without a number (db/waiting-invoices.ts); a numbering pass then numbers every invoice
// waiting, in one short transaction of its own: it takes the numbering lock (one row, so one pass
// at a time on any number of servers), takes the waiting invoices out in a fixed order (issue
// time, then order id), takes their numbers from each series' counter with one update, writes
// them with their numbers and queues their receipts, which name the number. When 50 orders commit
// together, a pass numbers most of them: the counter is taken once per batch, not once per order,
// and no order's transaction waits on it. In one process, requests that commit while a pass runs
// wait for the one pass after it (passAfterNow) instead of each taking the lock in turn.
//
// Gapless: numbers are taken and their documents written in one transaction, so a pass that rolls
// back takes back its numbers and its invoices wait for the next pass. Nothing lost: an invoice
// committed with its charge waits until a pass numbers it; the request that made the charge runs
// one before it answers, the server runs one when it starts and the renewal worker on each round.
import { formatDocumentNumber, seriesFor } from "../../domain/invoices/numbering.ts";
import type { Config } from "../config.ts";
import type { Db, Queryable } from "../db/db.ts";
import { Invoices, type StoredInvoice } from "../db/invoices.ts";
import { type WaitingInvoice, WaitingInvoices } from "../db/waiting-invoices.ts";
import type { Logger } from "../log.ts";
import type { Mail, Mailer } from "../mail/mailer.ts";
import { PassesAfterNow } from "./pass-after-now.ts";
import { waitingReceiptMail } from "./receipts.ts";

export type InvoiceDeps = {
  mailer: Pick<Mailer, "queue" | "queueAll">;
  config: Pick<Config, "publicBaseUrl" | "seller">;
};

export type NumberingDeps = {
  db: Db;
  log: Pick<Logger, "warn">;
  mailer: Pick<Mailer, "queue" | "queueAll" | "kick">;
  config: Pick<Config, "publicBaseUrl" | "seller">;
};

/** Invoices taken per statement: a pass after a long outage numbers them in several batches. */
const BATCH = 500;

/**
 * Numbers every waiting invoice inside `tx`, which then holds the numbering lock until it ends:
 * a pass's own transaction, or one that must see an order's invoice numbered before it goes on
 * (a refund's credit note names the invoice it credits). Returns the invoices numbered.
 */
export async function numberWaitingIn(tx: Queryable, deps: InvoiceDeps): Promise<StoredInvoice[]> {
  // Issued together (on PostgreSQL one round trip, decision 0074), run one after the other: the
  // first batch is taken once the lock is held, so it sees what the previous holder committed.
  const [, first] = await Promise.all([WaitingInvoices.lock(tx), WaitingInvoices.take(tx, BATCH)]);
  const numbered: StoredInvoice[] = [];
  for (let batch = first; ; batch = await WaitingInvoices.take(tx, BATCH)) {
    if (batch.length > 0) numbered.push(...(await numberBatch(tx, deps, batch)));
    if (batch.length < BATCH) return numbered;
  }
}

async function numberBatch(
  tx: Queryable,
  deps: InvoiceDeps,
  batch: readonly WaitingInvoice[],
): Promise<StoredInvoice[]> {
  const bySeries = new Map<string, WaitingInvoice[]>();
  for (const waiting of batch) {
    const series = seriesFor("invoice", waiting.issuedAt);
    bySeries.set(series, [...(bySeries.get(series) ?? []), waiting]);
  }
  const stored: StoredInvoice[] = [];
  const mails: Mail[] = [];
  for (const [series, waiting] of bySeries) {
    const sequences = await Invoices.takeNumbers(tx, series, waiting.length);
    waiting.forEach((w, i) => {
      const sequence = sequences[i] ?? 0;
      const number = formatDocumentNumber(series, sequence);
      const invoice: StoredInvoice = {
        number,
        series,
        sequence,
        kind: "invoice",
        userId: w.userId,
        orderId: w.orderId,
        refersTo: null,
        refundRef: null,
        creditedBy: null,
        total: w.total,
        document: { ...w.document, number },
        issuedAt: w.issuedAt,
      };
      stored.push(invoice);
      if (w.receipt) mails.push(waitingReceiptMail(w.receipt, invoice, deps.config));
    });
  }
  await Promise.all([Invoices.insertAll(tx, stored), deps.mailer.queueAll(tx, mails)]);
  return stored;
}

/** The passes of one database in this process. */
const passesOf = new WeakMap<Db, PassesAfterNow<number>>();

/**
 * A pass that starts after this call (pass-after-now.ts): a new one, or, when one is running (it
 * may have read the waiting invoices before the caller's committed), the next one. The requests
 * that commit while a pass runs all wait for that one next pass: this process takes the numbering
 * lock once per batch, not once per order, and its requests never queue on the lock one by one.
 */
function passAfterNow(deps: NumberingDeps): Promise<number> {
  let passes = passesOf.get(deps.db);
  if (!passes) {
    passes = new PassesAfterNow<number>();
    passesOf.set(deps.db, passes);
  }
  return passes.after(() => pass(deps));
}

async function pass(deps: NumberingDeps): Promise<number> {
  // Read committed: each statement after the lock sees what the previous holder committed (a
  // serializable snapshot would predate the lock); every write is one atomic statement.
  const numbered = await deps.db.transaction((tx) => numberWaitingIn(tx, deps), {
    isolation: "read committed",
  });
  if (numbered.length > 0) deps.mailer.kick();
  return numbered.length;
}

/**
 * Numbers every waiting invoice (in a pass of its own, see passAfterNow). With `only`, it returns
 * at once when nothing of that order or that account waits (another pass numbered it). Returns
 * how many invoices the pass numbered.
 */
export async function numberWaiting(
  deps: NumberingDeps,
  only?: { orderId: string } | { userId: number },
): Promise<number> {
  if (only) {
    const waits =
      "orderId" in only
        ? await WaitingInvoices.has(deps.db, only.orderId)
        : await WaitingInvoices.anyOf(deps.db, only.userId);
    if (!waits) return 0;
  }
  return passAfterNow(deps);
}

/**
 * The pass a request runs after its charge committed, before it answers, so its invoice has its
 * number when the answer goes out. The charge is recorded whatever happens here: a pass that
 * fails leaves the invoice waiting for the next one (the renewal worker's round, a restart).
 */
export async function numberAfterCommit(deps: NumberingDeps, orderId: string): Promise<void> {
  try {
    await numberWaiting(deps, { orderId });
  } catch (error) {
    deps.log.warn(
      `invoices: numbering after order ${orderId} failed (${String(error)}); the next pass numbers it`,
    );
  }
}
