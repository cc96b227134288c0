// Invoice numbers taken by two "servers" (two connections, or pools, to one database) at once,
// with some of the transactions rolled back after taking a number: every committed invoice has a
// number of its own, and the numbers of a series run 1..n without a gap (issue 23 item 1,
// decision 0043). On SQLite, PGlite and, with DATABASE_URL, a PostgreSQL server.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InvoiceDocument } from "../../domain/invoices/document.ts";
import { seriesGaps } from "../../domain/invoices/numbering.ts";
import { openPglite } from "../testing/pglite.ts";
import {
  openTestPostgres,
  POSTGRES_SKIPPED,
  postgresUrl,
  tellPostgresSkipped,
} from "../testing/postgres.ts";
import type { Db } from "./db.ts";
import { Invoices } from "./invoices.ts";
import { migrate } from "./migrations.ts";
import { openPostgres } from "./postgres.ts";
import { SqliteDb } from "./sqlite.ts";

const NOW = Date.UTC(2026, 0, 15, 12);
const url = postgresUrl();
if (!url) tellPostgresSkipped("invoice numbers on a PostgreSQL server");

type Opened = { db: Db; other: Db; close(): Promise<void> };

const backends: { name: string; skip: string | null; open(): Promise<Opened> }[] = [
  {
    name: "SQLite",
    skip: null,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), "invoice-numbers-"));
      const db = new SqliteDb(join(dir, "db.sqlite"));
      await migrate(db, NOW);
      const other = new SqliteDb(join(dir, "db.sqlite"));
      return {
        db,
        other,
        async close() {
          other.close();
          db.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: "PGlite",
    skip: null,
    async open() {
      const db = await openPglite();
      await migrate(db, NOW);
      return { db, other: db, close: () => db.close() };
    },
  },
  {
    name: "PostgreSQL server",
    skip: url ? null : POSTGRES_SKIPPED,
    async open() {
      const { db, schema } = await openTestPostgres(url ?? "");
      await migrate(db, NOW);
      const other = openPostgres({ url: schema.url, poolSize: 4 });
      return {
        db,
        other,
        async close() {
          await other.close();
          await db.close();
        },
      };
    },
  },
];

class Abandoned extends Error {}

/** One purchase's transaction: takes a number, stores the invoice; `abandon` rolls it back. */
async function issue(db: Db, i: number, at: number, abandon: boolean): Promise<string | null> {
  try {
    return await db.transaction(async (tx) => {
      const taken = await Invoices.nextNumber(tx, "invoice", at);
      await Invoices.insert(tx, {
        ...taken,
        kind: "invoice",
        userId: 1,
        orderId: `ord_${i}`,
        refersTo: null,
        refundRef: null,
        creditedBy: null,
        total: 100,
        document: { number: taken.number } as InvoiceDocument,
        issuedAt: at,
      });
      if (abandon) throw new Abandoned("the charge was not recorded");
      return taken.number;
    });
  } catch (error) {
    if (error instanceof Abandoned) return null;
    throw error;
  }
}

for (const backend of backends) {
  describe.skipIf(backend.skip !== null)(`invoice numbers on ${backend.name}`, () => {
    let opened: Opened;
    beforeAll(async () => {
      opened = await backend.open();
    }, 120_000);
    afterAll(() => opened?.close());

    it("two servers issuing at once: no number twice, none skipped, rolled-back ones reused", async () => {
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          issue(i % 2 === 0 ? opened.db : opened.other, i, NOW, i % 7 === 3),
        ),
      );
      const committed = results.filter((n): n is string => n !== null);
      expect(committed).toHaveLength(60 - results.filter((n) => n === null).length);
      expect(new Set(committed).size).toBe(committed.length);
      const rows = await opened.db.all<{ sequence: number; series: string }>(
        "SELECT sequence, series FROM invoices WHERE series = 'INV-2026'",
      );
      expect(rows).toHaveLength(committed.length);
      expect(seriesGaps(rows.map((r) => Number(r.sequence)))).toEqual({
        missing: [],
        repeated: [],
      });
    }, 60_000);

    it("each year and each kind is a series of its own, starting at 1", async () => {
      const nextYear = Date.UTC(2027, 0, 1);
      const first = await opened.db.transaction((tx) =>
        Invoices.nextNumber(tx, "invoice", nextYear),
      );
      const credit = await opened.db.transaction((tx) =>
        Invoices.nextNumber(tx, "credit_note", nextYear),
      );
      expect(first.number).toBe("INV-2027-000001");
      expect(credit.number).toBe("CN-2027-000001");
    });
  });
}
