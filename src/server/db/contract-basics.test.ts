// The database contract (testing/db-contract.ts: SQLite, PGlite and, with DATABASE_URL, a
// PostgreSQL server): migrations, what the drivers return, unique violations and transactions.
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  backends,
  describeOn,
  NOW,
  type Opened,
  someUser,
  unique,
} from "../testing/db-contract.ts";
import { bool, type Db, UniqueViolation } from "./db.ts";
import { MIGRATIONS, migrate, migrationKey } from "./migrations.ts";
import { Events } from "./outbox.ts";
import { freeSubscription, Subscriptions } from "./subscriptions.ts";
import { Users } from "./users.ts";

for (const backend of backends) {
  describeOn(backend, "migrations, values, unique violations, transactions", () => {
    let opened: Opened;
    let db: Db;
    beforeAll(async () => {
      opened = await backend.open();
      db = opened.db;
    }, 60_000);
    afterAll(async () => {
      await opened?.close();
    });

    it("migrates an empty database once, also when two servers start at once", async () => {
      const [a, b] = await Promise.all([migrate(db, NOW), migrate(opened.another(), NOW)]);
      expect([...a, ...b].sort((x, y) => x - y)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await migrate(db, NOW + 1)).toEqual([]);
      const rows = await db.all<{ name: string }>(
        "SELECT name FROM kysely_migration ORDER BY name",
      );
      expect(rows).toEqual(MIGRATIONS.map((m) => ({ name: migrationKey(m.version) })));
    });

    it("rolls a failing migration back whole", async () => {
      await expect(
        migrate(db, NOW, [
          ...MIGRATIONS,
          {
            version: 1000,
            name: "bad",
            up: async (k) => {
              await sql`CREATE TABLE contract_x (a INTEGER)`.execute(k);
              await sql`CREATE TABLE contract_x (a INTEGER)`.execute(k);
            },
          },
        ]),
      ).rejects.toThrow(/Migration 1000 \(bad\) failed/);
      await expect(db.get("SELECT COUNT(*) AS n FROM contract_x")).rejects.toThrow();
      expect(await db.get("SELECT name FROM kysely_migration WHERE name = '1000'")).toBe(undefined);
    });

    it("returns integers as numbers and stores booleans as 0/1", async () => {
      const id = await db.transaction((tx) => Users.insert(tx, someUser()));
      expect(typeof id).toBe("number");
      await db.run("UPDATE users SET email_verified = ?, last_visit = ? WHERE id = ?", [
        true,
        BigInt(NOW),
        id,
      ]);
      const row = await db.get<{ email_verified: unknown; last_visit: unknown; n: unknown }>(
        "SELECT email_verified, last_visit, (SELECT COUNT(*) FROM users) AS n FROM users WHERE id = ?",
        [id],
      );
      expect(row?.email_verified).toBe(1);
      expect(row?.last_visit).toBe(NOW);
      expect(typeof row?.n).toBe("number");
      const sum = await db.get<{ s: unknown }>(
        "SELECT SUM(created_at) AS s FROM users WHERE id = ?",
        [id],
      );
      expect(sum?.s).toBe(NOW);
      const flag = await db.get<{ b: unknown }>(
        "SELECT email_verified = 1 AS b FROM users WHERE id = ?",
        [id],
      );
      expect(bool(flag?.b)).toBe(true);
      expect(await db.get("SELECT id FROM users WHERE id = ?", [-1])).toBe(undefined);
    });

    it("throws UniqueViolation for a taken e-mail, and the transaction writes nothing", async () => {
      const first = someUser();
      await db.transaction((tx) => Users.insert(tx, first));
      const count = await Users.count(db);
      const error = await db
        .transaction(async (tx) => {
          await Users.insert(tx, someUser());
          await Users.insert(tx, { ...someUser(), email: first.email });
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UniqueViolation);
      expect((error as UniqueViolation).constraint).toMatch(/email/);
      expect(await Users.count(db)).toBe(count);
    });

    it("rolls a transaction back when its work throws, and returns its value otherwise", async () => {
      const name = unique("rollback");
      await expect(
        db.transaction(async (tx) => {
          await Events.insert(tx, { kind: "trackjs", name, userId: null, payload: 1, now: NOW });
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      const count = async () =>
        (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM events WHERE name = ?", [name]))?.n;
      expect(await count()).toBe(0);
      expect(
        await db.transaction(async (tx) => {
          await Events.insert(tx, { kind: "trackjs", name, userId: null, payload: 1, now: NOW });
          return "kept";
        }),
      ).toBe("kept");
      expect(await count()).toBe(1);
    });

    it("runs overlapping read-then-write transactions as if one after the other", async () => {
      const userId = await db.transaction((tx) => Users.insert(tx, someUser()));
      await db.transaction((tx) => Subscriptions.insert(tx, freeSubscription(userId, NOW)));
      // Each reads the credits and writes them back plus one: lost updates would leave fewer.
      await Promise.all(
        Array.from({ length: 12 }, () =>
          opened.another().transaction(async (tx) => {
            const sub = await Subscriptions.get(tx, userId);
            await Subscriptions.update(tx, userId, {
              exportCredits: (sub?.exportCredits ?? 0) + 1,
            });
          }),
        ),
      );
      expect((await Subscriptions.get(db, userId))?.exportCredits).toBe(12);
    });
  });
}
