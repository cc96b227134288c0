import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { testClock } from "../clock.ts";
import type { Db, Queryable } from "../db/db.ts";
import { IdempotencyKeys } from "../db/idempotency.ts";
import { migrate } from "../db/migrations.ts";
import { Events } from "../db/outbox.ts";
import { SqliteDb } from "../db/sqlite.ts";
import { newKey, startTestServer, type TestDatabase, type TestServer } from "../testing/harness.ts";
import { openPglite } from "../testing/pglite.ts";
import {
  openTestPostgres,
  POSTGRES_SKIPPED,
  postgresUrl,
  tellPostgresSkipped,
} from "../testing/postgres.ts";
import { countCharges, countEvents, countOrdersWithKey, handKeyTo } from "../testing/tables.ts";
import { fingerprint, IdempotencyService } from "./idempotency.ts";

// The replay tests run on SQLite, on PostgreSQL in-process (PGlite) and, when DATABASE_URL names
// one, on a PostgreSQL server.
const databases: { name: string; database: TestDatabase; skip: string | null }[] = [
  { name: "SQLite", database: "sqlite", skip: null },
  { name: "PostgreSQL in-process (PGlite)", database: "pglite", skip: null },
  {
    name: "a PostgreSQL server",
    database: "postgres",
    skip: postgresUrl() ? null : POSTGRES_SKIPPED,
  },
];
if (!postgresUrl()) tellPostgresSkipped("the replay tests on a PostgreSQL server");

for (const { name, database, skip } of databases) {
  // PostgreSQL in WebAssembly answers slower than SQLite: more time on a busy machine.
  (skip ? describe.skip : describe)(`one key, one order on ${name}`, { timeout: 30_000 }, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ testDatabase: database });
    }, 60_000);
    afterAll(async () => {
      await server?.close();
    });

    it("replays one payment 100 times at once and finds one order and one charge", async () => {
      const client = await server.signedIn("monthly@demo.test");
      const key = newKey();
      const chargesBefore = await countCharges(server.running.deps.db);
      const answers = await Promise.all(
        Array.from({ length: 100 }, () =>
          client.call(api.upgrade, {
            body: { product: { code: "wv_unloct17_12m" }, newCart: true },
            idempotencyKey: key,
          }),
        ),
      );
      const bodies = new Set(answers.map((a) => JSON.stringify(a.body)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(bodies.size).toBe(1);
      expect(await countOrdersWithKey(server.running.deps.db, key)).toBe(1);
      expect(await countCharges(server.running.deps.db)).toBe(chargesBefore + 1);
    });

    it("refuses the same key with other parameters, also while the first is running", async () => {
      const client = await server.signedIn("owner@demo.test");
      const key = newKey();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          client.call(api.upgrade, {
            body: { product: { code: i % 2 === 0 ? "single_export_hd" : "single_export_4k" } },
            idempotencyKey: key,
          }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200).length).toBe(10);
      expect(statuses.filter((s) => s === 422).length).toBe(10);
      expect(await countOrdersWithKey(server.running.deps.db, key)).toBe(1);
    });

    it("keeps keys apart per user", async () => {
      const key = newKey();
      const a = await (await server.signedIn("teacher@demo-school.edu")).call(api.upgrade, {
        body: { product: { code: "single_export_hd" } },
        idempotencyKey: key,
      });
      const b = await (await server.signedIn("owner@demo.test")).call(api.upgrade, {
        body: { product: { code: "single_export_hd" } },
        idempotencyKey: key,
      });
      expect(a.ok && b.ok).toBe(true);
      expect(a.ok && b.ok && a.body.orderId !== b.body.orderId).toBe(true);
    });
  });
}

describe("IdempotencyService", () => {
  const dir = mkdtempSync(join(tmpdir(), "idem-"));
  const db = new SqliteDb(join(dir, "db.sqlite"));
  const clock = testClock(1_000_000);
  beforeAll(async () => {
    await migrate(db, clock.now());
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("takes over a key left pending by a process that is gone, and stores one answer", async () => {
    const print = fingerprint("POST", "/x", { a: 1 });
    await db.transaction((tx) =>
      // On SQLite one process serves the database: another boot id's key is a dead process's,
      // taken over at once even though its lease has not run out.
      IdempotencyKeys.claim(tx, {
        userId: 1,
        key: "k",
        fingerprint: print,
        owner: "dead",
        now: 1,
        leaseUntil: Date.now() + 60_000,
      }),
    );
    const service = new IdempotencyService(db, clock, "alive");
    let runs = 0;
    const work = async () => {
      runs += 1;
      return { status: 200, body: { n: runs } };
    };
    const first = await service.run(1, "k", print, work);
    const second = await service.run(1, "k", print, work);
    expect(first).toEqual({ status: 200, body: { n: 1 }, replayed: false });
    expect(second).toEqual({ status: 200, body: { n: 1 }, replayed: true });
    expect(runs).toBe(1);
  });

  it("frees the key when the work fails, so that a retry can do it", async () => {
    const service = new IdempotencyService(db, clock, "alive");
    const print = fingerprint("POST", "/y", {});
    await expect(
      service.run(1, "fails", print, async () => Promise.reject(new Error("boom"))),
    ).rejects.toThrow("boom");
    const retried = await service.run(1, "fails", print, async () => ({
      status: 201,
      body: { ok: true },
    }));
    expect(retried).toEqual({ status: 201, body: { ok: true }, replayed: false });
  });

  it("ignores the order of keys in the fingerprint", () => {
    expect(fingerprint("POST", "/p", { a: 1, b: [{ c: 1, d: 2 }] })).toBe(
      fingerprint("POST", "/p", { b: [{ d: 2, c: 1 }], a: 1 }),
    );
    expect(fingerprint("POST", "/p", { a: 1 })).not.toBe(fingerprint("POST", "/p", { a: 2 }));
  });
});

// A commit whose answer is final (Outcome.bodyFinal) completes the key beside its writes, issued
// with them (on PostgreSQL in one batch): the writes and the stored answer still commit together
// or not at all. On SQLite, PGlite and, when DATABASE_URL names one, a PostgreSQL server.
const dir = mkdtempSync(join(tmpdir(), "idem-final-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const stores: { name: string; open: () => Promise<Db>; skip: boolean }[] = [
  {
    name: "SQLite",
    open: async () => new SqliteDb(join(dir, "final.sqlite")),
    skip: false,
  },
  { name: "PGlite", open: () => openPglite(), skip: false },
  {
    name: "a PostgreSQL server",
    open: async () => (await openTestPostgres(postgresUrl() ?? "")).db,
    skip: !postgresUrl(),
  },
];

for (const store of stores) {
  describe.skipIf(store.skip)(`a final answer's commit on ${store.name}`, () => {
    let db: Db;
    const clock = testClock(2_000_000);
    beforeAll(async () => {
      db = await store.open();
      await migrate(db, clock.now());
    });
    afterAll(() => db.close());

    const count = async (name: string) => countEvents(db, name);

    for (const bodyFinal of [true, false]) {
      it(`stores the answer with the writes, or neither (bodyFinal ${bodyFinal})`, async () => {
        const service = new IdempotencyService(db, clock, "alive");
        const print = fingerprint("POST", "/final", { bodyFinal });
        const write = (name: string) => async (tx: Queryable) => {
          await Promise.all([
            Events.insert(tx, { kind: "trackjs", name, userId: null, payload: 1, now: 1 }),
            Events.insert(tx, { kind: "trackjs", name, userId: null, payload: 2, now: 1 }),
          ]);
        };
        const kept = `kept-${bodyFinal}`;
        const work = async () => ({ status: 200, body: { kept }, bodyFinal, commit: write(kept) });
        expect(await service.run(2, kept, print, work)).toEqual({
          status: 200,
          body: { kept },
          replayed: false,
        });
        expect(await service.run(2, kept, print, work)).toMatchObject({ replayed: true });
        expect(await count(kept)).toBe(2);

        // Taken over by another process while the work ran: its writes must not commit.
        const lost = `lost-${bodyFinal}`;
        await expect(
          service.run(2, lost, print, async () => {
            await handKeyTo(db, { userId: 2, key: lost }, "another");
            return { status: 200, body: { lost }, bodyFinal, commit: write(lost) };
          }),
        ).rejects.toThrow(/taken over/);
        expect(await count(lost)).toBe(0);
      });
    }
  });
}
