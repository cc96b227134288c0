// Server tests read and arrange data like the product does (issue 35, item 4): through the data
// modules (db/*.ts) or the typed helpers of testing/tables.ts, never with SQL of their own, so a
// change of a table is made and type-checked in one place. Only the data layer's own tests
// (db/) write SQL, and the one test below that must speak an older schema's SQL.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SERVER = join(import.meta.dirname, "..");

/** SQL statements in a string literal, or Kysely's raw `sql` template. */
const RAW_SQL = /["'`]\s*(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b|\bsql`/;

/** Tests that may keep SQL, and why. */
const ALLOWED: Record<string, string> = {
  // Migration 14 run on a database written before it: the rows are written in that older schema.
  "services/locks-and-replays.test.ts": "a migration's test on the schema before it",
};

describe("server tests outside the data layer", () => {
  it("read and write tables through the data modules and typed helpers, never raw SQL", () => {
    const tests = readdirSync(SERVER, { recursive: true, encoding: "utf8" }).filter(
      (f) => f.endsWith(".test.ts") && !/^db[/\\]/.test(f) && !f.endsWith("no-raw-sql.test.ts"),
    );
    const withSql = tests.filter((f) => RAW_SQL.test(readFileSync(join(SERVER, f), "utf8")));
    expect(withSql.sort()).toEqual(Object.keys(ALLOWED).sort());
  });
});
