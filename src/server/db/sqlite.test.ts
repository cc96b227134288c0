import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS, migrate, migrationKey } from "./migrations.ts";
import { SqliteDb } from "./sqlite.ts";

const dir = mkdtempSync(join(tmpdir(), "sqlite-test-"));
const db = new SqliteDb(join(dir, "t.sqlite"));
db.raw.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)");
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("SqliteDb", () => {
  it("uses WAL and synchronous FULL", () => {
    expect(db.raw.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(db.raw.prepare("PRAGMA synchronous").get()).toEqual({ synchronous: 2 });
  });

  it("reads rows as node:sqlite makes them, whatever the column names", async () => {
    // The rows are built from node:sqlite's arrays by the column names (node-sqlite-dialect.ts).
    const row = await db.get(
      `SELECT 1 AS id, 'x' AS "a""b", 'y' AS "c\\d", 'z' AS "e}; throw 1; //", 2 AS id`,
    );
    expect(row).toEqual({ id: 2, 'a"b': "x", "c\\d": "y", "e}; throw 1; //": "z" });
    expect(Object.getPrototypeOf(row)).toBe(null);
    expect(await db.get("SELECT v FROM t WHERE v = ?", ["nothing"])).toBe(undefined);
    expect(await db.all("SELECT v FROM t WHERE v = ?", ["nothing"])).toEqual([]);
  });

  it("reads a table's new columns after a script changed it (a migration)", async () => {
    await db.exec("CREATE TABLE grows (id INTEGER PRIMARY KEY)");
    await db.run("INSERT INTO grows (id) VALUES (1)");
    expect(await db.get("SELECT * FROM grows")).toEqual({ id: 1 });
    await db.exec("ALTER TABLE grows ADD COLUMN note TEXT DEFAULT 'new'");
    expect(await db.get("SELECT * FROM grows")).toEqual({ id: 1, note: "new" });
  });

  it("commits concurrent transactions together, rolling back only the one that fails", async () => {
    let commits = 0;
    const original = db.raw.exec.bind(db.raw);
    db.raw.exec = (sql: string) => {
      if (sql === "COMMIT") commits += 1;
      return original(sql);
    };
    const results = await Promise.allSettled([
      db.transaction((tx) => tx.run("INSERT INTO t (v) VALUES (?)", ["a"])),
      db.transaction(async (tx) => {
        await tx.run("INSERT INTO t (v) VALUES (?)", ["b"]);
        await tx.run("INSERT INTO t (v) VALUES (?)", ["a"]); // unique violation
      }),
      db.transaction((tx) => tx.run("INSERT INTO t (v) VALUES (?)", ["c"])),
    ]);
    db.raw.exec = original;
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(commits).toBe(1);
    expect(await db.all("SELECT v FROM t ORDER BY v")).toEqual([{ v: "a" }, { v: "c" }]);
  });

  it("lets reads wait until a group is committed", async () => {
    const write = db.transaction(async (tx) => {
      await tx.run("INSERT INTO t (v) VALUES (?)", ["d"]);
      await new Promise<void>((r) => queueMicrotask(r));
      await tx.run("INSERT INTO t (v) VALUES (?)", ["e"]);
    });
    await new Promise((r) => setImmediate(r));
    const read = await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM t WHERE v IN ('d', 'e')");
    await write;
    expect([0, 2]).toContain(read?.n);
  });

  it("converts booleans and undefined parameters", async () => {
    await db.run("INSERT INTO t (v) VALUES (?)", [String(true)]);
    expect(await db.get("SELECT ? AS a, ? AS b", [true, undefined])).toEqual({ a: 1, b: null });
  });
});

describe("migrations", () => {
  it("apply once, in order, and are recorded", async () => {
    const mdb = new SqliteDb(join(dir, "m.sqlite"));
    expect(await migrate(mdb, 1)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(mdb, 2)).toEqual([]);
    const versions = mdb.raw.prepare("SELECT name FROM kysely_migration ORDER BY name").all();
    expect(versions.map((v) => (v as { name: string }).name)).toEqual(
      MIGRATIONS.map((m) => migrationKey(m.version)),
    );
    mdb.close();
  });

  it("roll a failing migration back whole", async () => {
    const mdb = new SqliteDb(join(dir, "f.sqlite"));
    await expect(
      migrate(mdb, 1, [
        {
          version: 1,
          name: "bad",
          up: async (k) => {
            await sql`CREATE TABLE x (a)`.execute(k);
            await sql`CREATE TABLE x (a)`.execute(k);
          },
        },
      ]),
    ).rejects.toThrow(/Migration 1 \(bad\) failed/);
    expect(
      mdb.raw.prepare("SELECT name FROM sqlite_master WHERE name = 'x'").get(),
    ).toBeUndefined();
    mdb.close();
  });
});
