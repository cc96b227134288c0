// The PostgreSQL dialect's own contract: ? placeholders numbered outside literals, and on a
// PostgreSQL server (DATABASE_URL) prepared statements, transactions' BEGIN and statements
// outside transactions. The contract every query module keeps on all backends is in
// contract-*.test.ts.
import { describe, expect, it } from "vitest";
import { openTestPostgres, postgresUrl } from "../testing/postgres.ts";
import { UniqueViolation } from "./db.ts";
import { numberPlaceholders } from "./placeholders.ts";

const url = postgresUrl();

describe("PostgreSQL rendering", () => {
  it("numbers ? placeholders outside literals, quoted names and comments", () => {
    expect(
      numberPlaceholders(
        `SELECT '?', 'it''s ?', "a?b", ? -- a ? here
         /* and ? there */, $$?$$, $tag$ ? $tag$, ? FROM t WHERE x = ?`,
      ),
    ).toBe(
      `SELECT '?', 'it''s ?', "a?b", $1 -- a ? here
         /* and ? there */, $$?$$, $tag$ ? $tag$, $2 FROM t WHERE x = $3`,
    );
  });
});

describe.skipIf(!url)("prepared statements on a PostgreSQL server", () => {
  it("runs a statement prepared before a migration changed its table's columns", async () => {
    // One connection, so the statement is prepared on the connection the change then hits.
    const { db } = await openTestPostgres(url ?? "", 1);
    try {
      await db.exec("CREATE TABLE prepared_t (a BIGINT)");
      await db.transaction((tx) => tx.run("INSERT INTO prepared_t (a) VALUES (?)", [1]));
      const read = () => db.all("SELECT * FROM prepared_t WHERE a = ?", [1]);
      expect(await read()).toEqual([{ a: 1 }]);
      expect(await read()).toEqual([{ a: 1 }]);
      // Another server's migration: the prepared `SELECT *` now has a column more.
      await db.exec("ALTER TABLE prepared_t ADD COLUMN b TEXT");
      expect(await read()).toEqual([{ a: 1, b: null }]);
      await db.exec("ALTER TABLE prepared_t ADD COLUMN c TEXT");
      expect(
        await db.transaction((tx) => tx.all("SELECT * FROM prepared_t WHERE a = ?", [1])),
      ).toEqual([{ a: 1, b: null, c: null }]);
    } finally {
      await db.close();
    }
  });
});

describe.skipIf(!url)("a transaction's BEGIN on a PostgreSQL server", () => {
  it("goes out with the transaction's first statement, which never runs outside it", async () => {
    // One connection: the second transaction finds BEGIN prepared on it, as a busy pool does.
    const { db } = await openTestPostgres(url ?? "", 1);
    try {
      await db.exec("CREATE TABLE begin_t (a BIGINT PRIMARY KEY)");
      const count = async () =>
        (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM begin_t"))?.n;
      for (let round = 1; round <= 3; round++) {
        await expect(
          db.transaction(async (tx) => {
            await tx.run("INSERT INTO begin_t (a) VALUES (?)", [round * 10]);
            throw new Error("boom");
          }),
        ).rejects.toThrow("boom");
        expect(await count()).toBe(round - 1);
        await db.transaction((tx) => tx.run("INSERT INTO begin_t (a) VALUES (?)", [round]));
        expect(await count()).toBe(round);
      }
    } finally {
      await db.close();
    }
  });

  it("sends the statements issued together in one batch, each answered with its own result", async () => {
    const { db } = await openTestPostgres(url ?? "", 1);
    try {
      await db.exec("CREATE TABLE together_t (a BIGINT PRIMARY KEY)");
      const answers = await db.transaction((tx) =>
        Promise.all([
          tx.run("INSERT INTO together_t (a) VALUES (?)", [1]),
          tx.get<{ n: number }>("SELECT COUNT(*) AS n FROM together_t"),
          tx.run("INSERT INTO together_t (a) VALUES (?), (?)", [2, 3]),
          tx.all<{ a: number }>("SELECT a FROM together_t ORDER BY a"),
        ]),
      );
      expect(answers).toEqual([
        { changes: 1 },
        { n: 1 },
        { changes: 2 },
        [{ a: 1 }, { a: 2 }, { a: 3 }],
      ]);
      // One of them failing fails the transaction, whichever of them it is, and writes nothing.
      await expect(
        db.transaction((tx) =>
          Promise.all([
            tx.run("INSERT INTO together_t (a) VALUES (?)", [4]),
            tx.run("INSERT INTO together_t (a) VALUES (?)", [1]),
            tx.run("INSERT INTO together_t (a) VALUES (?)", [5]),
          ]),
        ),
      ).rejects.toBeInstanceOf(UniqueViolation);
      expect(await db.get("SELECT COUNT(*) AS n FROM together_t")).toEqual({ n: 3 });
    } finally {
      await db.close();
    }
  });
});

describe.skipIf(!url)("statements outside transactions on a PostgreSQL server", () => {
  it("answers many at once, each with its own rows, and one that fails fails alone", async () => {
    const { db } = await openTestPostgres(url ?? "", 2);
    try {
      await db.exec("CREATE TABLE shared_t (a BIGINT PRIMARY KEY, b TEXT)");
      // 300 statements from as many "requests" at once: inserts that commit alone (a third of
      // them repeat a key and must fail with UniqueViolation), and reads of what committed.
      const outcomes = await Promise.all(
        Array.from({ length: 300 }, async (_, i) => {
          const a = i % 3 === 2 ? i - 1 : i;
          try {
            await db.runAlone("INSERT INTO shared_t (a, b) VALUES (?, ?)", [a, `row ${i}`]);
          } catch (error) {
            return error instanceof UniqueViolation ? "taken" : error;
          }
          const row = await db.get<{ a: number; b: string }>(
            "SELECT a, b FROM shared_t WHERE a = ?",
            [a],
          );
          return row?.b === `row ${i}` && row.a === a ? "read back" : row;
        }),
      );
      expect(outcomes.filter((o) => o === "taken")).toHaveLength(100);
      expect(outcomes.filter((o) => o === "read back")).toHaveLength(200);
      expect(await db.get("SELECT COUNT(*) AS n FROM shared_t")).toEqual({ n: 200 });
    } finally {
      await db.close();
    }
  });

  it("reads a statement alike at every execution: nulls, a repeated name, integers past 2^53 refused", async () => {
    const { db } = await openTestPostgres(url ?? "", 1);
    try {
      for (let i = 0; i < 3; i++) {
        expect(await db.get("SELECT 1 AS x, NULL AS y, ? AS x", [`v${i}`])).toEqual({
          x: `v${i}`,
          y: null,
        });
      }
      const big = (n: bigint) => db.get("SELECT ?::bigint AS big", [n]);
      await expect(big(2n ** 60n)).rejects.toThrow(/beyond JavaScript's safe integers/);
      expect(await big(5n)).toEqual({ big: 5 });
    } finally {
      await db.close();
    }
  });
});
