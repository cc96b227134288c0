// PostgreSQL in this process, for the tests: PGlite (PostgreSQL compiled to WebAssembly) behind
// the same PostgresDb as a real server, through a pool of one connection shaped as Kysely's
// PostgresPool (node-postgres's), over PGlite's public query and exec. `npm test` thereby runs
// the PostgreSQL dialect (placeholders, types, DDL, ON CONFLICT, transactions, unique violations)
// on any machine, without a PostgreSQL server.
//
// A new PGlite runs initdb, several seconds of work; a dump of a new database, made once per
// machine (in the OS temp folder, per PGlite version), is loaded into memory instead.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { PostgresPoolClient, PostgresQueryResult } from "kysely";
import { PostgresDb, type PostgresPool, toNumber } from "../db/postgres.ts";

/** Reads BIGINT and NUMERIC as numbers, as the pg pool of postgres.ts does. */
const parsers = { 20: toNumber, 1700: toNumber };

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const manifest = join(dirname(entry), "..", "package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function exists(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}

let dump: Blob | null = null;

/** The data folder of a new database, as a tar made by the first test process that needs it. */
async function template(): Promise<Blob> {
  if (dump) return dump;
  const file = join(tmpdir(), `checkout-pglite-template-${pgliteVersion()}.tar`);
  const lock = `${file}.lock`;
  for (let waited = 0; !exists(file); waited += 100) {
    let mine = false;
    try {
      mkdirSync(lock);
      mine = true;
    } catch {
      // Another process is making it; a lock older than a minute was left by one that died.
      if (waited > 60_000) rmSync(lock, { recursive: true, force: true });
    }
    if (mine) {
      try {
        if (!exists(file)) {
          const db = new PGlite();
          await db.waitReady;
          const tar = Buffer.from(await (await db.dumpDataDir("none")).arrayBuffer());
          await db.close();
          const temp = `${file}.${process.pid}`;
          writeFileSync(temp, tar);
          renameSync(temp, file);
        }
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    } else {
      await sleep(100);
    }
  }
  const bytes = readFileSync(file);
  dump = new Blob([new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.length)]);
  return dump;
}

/**
 * The command tag node-postgres reports (Kysely counts the rows of INSERT, UPDATE, DELETE and
 * MERGE by it), which PGlite's results do not carry: the statement's first word.
 */
function commandOf(text: string, affectedRows: number): PostgresQueryResult<unknown>["command"] {
  const word = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "";
  // A WITH ... that changed rows is counted as a write.
  if (word === "WITH") return affectedRows > 0 ? "UPDATE" : "SELECT";
  return word as PostgresQueryResult<unknown>["command"];
}

/** One connection: a transaction holds it from BEGIN to COMMIT, other queries wait their turn. */
function onePool(db: PGlite): PostgresPool {
  let tail: Promise<void> = Promise.resolve();
  const lock = async (): Promise<() => void> => {
    let unlock: () => void = () => {};
    const next = new Promise<void>((resolve) => {
      unlock = resolve;
    });
    const previous = tail;
    tail = previous.then(() => next);
    await previous;
    return unlock;
  };
  // Without parameters a script, as node-postgres sends it (the simple protocol).
  const run = async (
    text: string,
    values: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<unknown>> => {
    if (values.length === 0) {
      const last = (await db.exec(text)).at(-1);
      const count = last?.affectedRows ?? 0;
      return { command: commandOf(text, count), rowCount: count, rows: last?.rows ?? [] };
    }
    const result = await db.query<Record<string, unknown>>(text, [...values]);
    const count = result.affectedRows ?? 0;
    return { command: commandOf(text, count), rowCount: count, rows: result.rows };
  };
  return {
    options: {},
    async connect() {
      const unlock = await lock();
      let released = false;
      const client = {
        query: run,
        release: () => {
          if (released) return;
          released = true;
          unlock();
        },
      };
      return client as unknown as PostgresPoolClient;
    },
    async end() {
      await db.close();
    },
  };
}

/** A new, empty PostgreSQL database in this process's memory (not migrated). */
export async function openPglite(): Promise<PostgresDb> {
  const db = new PGlite({ loadDataDir: await template(), parsers });
  await db.waitReady;
  return new PostgresDb(onePool(db));
}
