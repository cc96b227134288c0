// Decision 0062 through the API: a charge's invoice is numbered after its order commits, by a pass
// that numbers every waiting invoice at once. Many orders at once get the numbers 1..n, each
// once, and each its one receipt; an invoice left waiting (the order committed, no pass ran, as
// after a crash) is numbered, and its receipt sent once, by the next start or the renewal
// worker's round; a refund of an order whose invoice waits credits it by its number. On SQLite,
// PGlite and, when DATABASE_URL names one, a PostgreSQL server.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { seriesGaps } from "../../domain/invoices/numbering.ts";
import type { Db } from "../db/db.ts";
import { Outbox } from "../db/outbox.ts";
import { SqliteDb } from "../db/sqlite.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";
import {
  countWaitingInvoices,
  invoicesOfOrders,
  numberingPasses,
  removeNumberingLock,
  restoreNumberingLock,
} from "../testing/invoice-tables.ts";
import { openPglite } from "../testing/pglite.ts";
import { openTestPostgres, postgresUrl, tellPostgresSkipped } from "../testing/postgres.ts";
import { saveSandboxCard } from "../testing/sandbox-cards.ts";
import { recordRefund } from "./refunds.ts";

const url = postgresUrl();
if (!url) tellPostgresSkipped("invoice numbering after the commit on a PostgreSQL server");

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const stores: Record<string, () => Promise<Db>> = {
  SQLite: async () => {
    const folder = mkdtempSync(join(tmpdir(), "invoice-numbering-"));
    folders.push(folder);
    return new SqliteDb(join(folder, "checkout.sqlite"));
  },
  PGlite: () => openPglite(),
  ...(url ? { "PostgreSQL server": async () => (await openTestPostgres(url)).db } : {}),
};

/** The database as a server sees it, except that closing the server leaves it open (a restart). */
function outliving(db: Db): Db {
  return Object.create(db, { close: { value: async () => {} } }) as Db;
}

describe.each(Object.keys(stores))("invoice numbering on %s", (store) => {
  let db: Db;
  let server: TestServer;
  const secret = randomBytes(32);

  beforeAll(async () => {
    db = await (stores[store] ?? (() => Promise.reject(new Error(store))))();
    server = await startTestServer({
      seed: false,
      database: { db: outliving(db), secret, label: store },
      renewals: { intervalMs: 0 },
    });
  });
  afterAll(async () => {
    await server.close();
    await db.close();
  });

  async function buyer(email: string): Promise<TestClient> {
    const { client } = await server.verifiedAccount(email, "secret-password-1");
    const card = await saveSandboxCard(client);
    if (!card.ok) throw new Error(card.body.message);
    return client;
  }

  function buy(client: TestClient, code: string) {
    return client.call(api.upgrade, {
      body: { product: { code } },
      idempotencyKey: newKey(),
    });
  }

  const invoicesOf = (orderIds: readonly string[]) => invoicesOfOrders(db, orderIds);
  const waiting = () => countWaitingInvoices(db);
  const receiptsTo = async (email: string) =>
    (await Outbox.latest(db, 200, email))
      .map((m) => m.subject)
      .filter((s) => s.startsWith("Receipt") || s.startsWith("Refund receipt"));

  /**
   * Runs `work` as if the server died after each order's commit and before its numbering: the
   * numbering lock's row is gone meanwhile, so every pass fails (and numbers nothing).
   */
  async function withoutNumbering<T>(work: () => Promise<T>): Promise<T> {
    await db.transaction((tx) => removeNumberingLock(tx));
    try {
      return await work();
    } finally {
      await db.transaction((tx) => restoreNumberingLock(tx));
    }
  }

  it("orders at once: numbers 1..n in one series, none twice, each invoice with one receipt", {
    timeout: 90_000,
  }, async () => {
    const exporter = await buyer("many-exports@example.com");
    const planBuyers = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => buyer(`many-plan-${i}@example.com`)),
    );
    const answers = await Promise.all([
      ...Array.from({ length: 30 }, () => buy(exporter, "single_export_hd")),
      ...planBuyers.map((client) => buy(client, "wv_unloct17_12m")),
    ]);
    const orderIds = answers.map((a) => (a.ok ? a.body.orderId : ""));
    expect(answers.filter((a) => !a.ok)).toEqual([]);

    // Each request's pass ran before it answered: nothing waits, every order has its number.
    expect(await waiting()).toBe(0);
    const invoices = await invoicesOf(orderIds);
    expect(new Set(invoices.map((i) => i.order_id))).toEqual(new Set(orderIds));
    expect(seriesGaps(invoices.map((i) => Number(i.sequence)))).toEqual({
      missing: [],
      repeated: [],
    });
    expect(invoices).toHaveLength(35);
    const exportReceipts = await receiptsTo("many-exports@example.com");
    const planReceipts = (
      await Promise.all([1, 2, 3, 4, 5].map((i) => receiptsTo(`many-plan-${i}@example.com`)))
    ).flat();
    const named = [...exportReceipts, ...planReceipts].map(
      (s) => /\(invoice (\S+)\)$/.exec(s)?.[1],
    );
    expect(named.sort()).toEqual(invoices.map((i) => i.number).sort());
  });

  it("an invoice left waiting by a crash is numbered at the next start and by the worker's round, its receipt sent once", async () => {
    const client = await buyer("crash@example.com");
    const [first, second] = await withoutNumbering(async () => [
      await buy(client, "single_export_hd"),
      await buy(client, "single_export_hd"),
    ]);
    if (!first?.ok || !second?.ok) throw new Error("the orders were refused");
    // The orders committed; their invoices wait, with no number and no receipt yet.
    expect(await waiting()).toBe(2);
    expect(await invoicesOf([first.body.orderId, second.body.orderId])).toEqual([]);
    expect(await receiptsTo("crash@example.com")).toEqual([]);

    // A server starting on the database numbers them, in the order they were issued, both in
    // one pass (one take of the numbering lock, one update of the series' counter).
    const passes = () => numberingPasses(db);
    const passesBefore = await passes();
    const restarted = await startTestServer({
      seed: false,
      database: { db: outliving(db), secret, label: store },
    });
    await restarted.close();
    expect(await passes()).toBe(passesBefore + 1);
    const numbered = await invoicesOf([first.body.orderId, second.body.orderId]);
    // In their fixed order: issue time, then order id (the test clock stands still: a tie).
    expect(numbered.map((i) => i.order_id)).toEqual(
      [first.body.orderId, second.body.orderId].sort(),
    );
    expect(numbered[1]?.sequence).toBe(Number(numbered[0]?.sequence) + 1);

    // One more left waiting: the renewal worker's round numbers it.
    const third = await withoutNumbering(() => buy(client, "single_export_hd"));
    if (!third.ok) throw new Error("the order was refused");
    expect(await waiting()).toBe(1);
    await server.running.renewals?.kick();
    expect(await waiting()).toBe(0);
    const all = await invoicesOf([first.body.orderId, second.body.orderId, third.body.orderId]);
    // Later passes (the next order's, another round) find nothing to do: one receipt each.
    await buy(client, "single_export_hd");
    await server.running.renewals?.kick();
    const receipts = await receiptsTo("crash@example.com");
    expect(receipts).toHaveLength(4);
    for (const invoice of all) {
      expect(receipts.filter((s) => s.endsWith(`(invoice ${invoice.number})`))).toHaveLength(1);
    }
  });

  it("a refund of an order whose invoice still waits credits the invoice by its number", async () => {
    const client = await buyer("refund-waiting@example.com");
    const bought = await withoutNumbering(() => buy(client, "single_export_hd"));
    if (!bought.ok) throw new Error("the order was refused");
    expect(await waiting()).toBe(1);
    const refunded = await db.transaction((tx) =>
      recordRefund(
        tx,
        {
          orderId: bought.body.orderId,
          amount: bought.body.total,
          currency: "usd",
          providerRefundId: `re_waiting_${store}`,
          kind: "refund",
          provider: "stripe",
          now: server.clock.now(),
        },
        server.running.deps,
      ),
    );
    expect(refunded.recorded).toBe(true);
    expect(await waiting()).toBe(0);
    const list = await client.call(api.invoiceDocuments, {});
    const docs = list.ok ? list.body.documents : [];
    const invoice = docs.find((d) => d.kind === "invoice");
    const note = docs.find((d) => d.kind === "credit_note");
    expect(invoice?.orderId).toBe(bought.body.orderId);
    expect(note).toMatchObject({ refersTo: invoice?.number, total: -bought.body.total });
    // The purchase's receipt (queued as its invoice got its number) and the refund's.
    expect((await receiptsTo("refund-waiting@example.com")).sort()).toEqual(
      [
        `Receipt: $${(bought.body.total / 100).toFixed(2)} paid (invoice ${invoice?.number})`,
        `Refund receipt: $${(bought.body.total / 100).toFixed(2)} (credit note ${note?.number})`,
      ].sort(),
    );
  });
});
