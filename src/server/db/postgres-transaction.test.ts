// How a PostgreSQL transaction sends its statements in batches (decision 0074), against a
// stand-in client that records what goes out and answers a moment later: BEGIN goes with the
// first batch, and no later batch goes out before BEGIN succeeded, so that a failed BEGIN leaves
// nothing to run outside the transaction. The database contract suite runs the real protocol.
import { describe, expect, it } from "vitest";
import type { PgClient, PgNamedQuery, PgPool, PgResult } from "./postgres.ts";
import { PostgresDb } from "./postgres.ts";
import { BatchFailed, type StatementRunner } from "./postgres-statement.ts";

const later = () => new Promise((resolve) => setTimeout(resolve, 5));

/** A stand-in client and pool; `failBegin`: BEGIN's statement fails. */
function standIn(failBegin: boolean) {
  const sent: string[][] = [];
  const client: PgClient = {
    query: (async (text: string | PgNamedQuery) => {
      sent.push([typeof text === "string" ? text : text.text]);
      await later();
      return { rows: [], rowCount: null };
    }) as PgClient["query"],
    release: () => {},
  };
  const pool: PgPool = {
    connect: async () => client,
    query: () => Promise.reject(new Error("not used")),
    end: async () => {},
  };
  const batch = (_client: unknown, queries: readonly PgNamedQuery[]): Promise<PgResult>[] => {
    sent.push(queries.map((q) => q.text));
    const beginError = new Error("BEGIN failed");
    const failing = failBegin && queries[0]?.text.startsWith("BEGIN");
    return queries.map(async (_, i) => {
      await later();
      if (failing) throw i === 0 ? beginError : new BatchFailed(beginError);
      return { rows: [], rowCount: 1 };
    });
  };
  const statement: StatementRunner = (c, query) => batch(c, [query])[0] as Promise<PgResult>;
  statement.batch = batch;
  return { db: new PostgresDb(pool, { prepare: true, statement, maxAttempts: 1 }), sent };
}

/** Two statements: one issued at once, one a turn of the event loop later (a second batch). */
async function work(tx: Parameters<Parameters<PostgresDb["transaction"]>[0]>[0]) {
  await Promise.all([
    tx.run("INSERT INTO t (a) VALUES (?)", [1]),
    (async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      return tx.run("INSERT INTO t (b) VALUES (?)", [2]);
    })(),
  ]);
}

describe("a PostgreSQL transaction's batches", () => {
  it("sends BEGIN with the first batch, and a later batch once BEGIN succeeded", async () => {
    const { db, sent } = standIn(false);
    await db.transaction(work, { isolation: "read committed" });
    expect(sent).toEqual([
      ["BEGIN ISOLATION LEVEL READ COMMITTED", "INSERT INTO t (a) VALUES ($1)"],
      ["INSERT INTO t (b) VALUES ($1)"],
      ["COMMIT"],
    ]);
  });

  it("sends a script issued with statements after them, once BEGIN succeeded", async () => {
    const { db, sent } = standIn(false);
    await db.transaction(async (tx) => {
      await Promise.all([
        tx.run("INSERT INTO t (a) VALUES (?)", [1]),
        tx.exec("CREATE TABLE u (a INTEGER)"),
        tx.run("INSERT INTO t (b) VALUES (?)", [2]),
      ]);
    });
    await later();
    expect(sent).toEqual([
      ["BEGIN ISOLATION LEVEL SERIALIZABLE", "INSERT INTO t (a) VALUES ($1)"],
      ["CREATE TABLE u (a INTEGER)"],
      ["INSERT INTO t (b) VALUES ($1)"],
      ["COMMIT"],
    ]);
  });

  it("sends nothing more when BEGIN fails, not even a batch issued while it was unanswered", async () => {
    const { db, sent } = standIn(true);
    await expect(db.transaction(work)).rejects.toThrow("BEGIN failed");
    // Let the second statement's turn come and go: it must not be sent.
    await later();
    await later();
    expect(sent).toEqual([
      ["BEGIN ISOLATION LEVEL SERIALIZABLE", "INSERT INTO t (a) VALUES ($1)"],
      ["ROLLBACK"],
    ]);
  });
});
