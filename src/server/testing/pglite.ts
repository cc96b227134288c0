// PostgreSQL in this process, for the tests: PGlite (PostgreSQL compiled to WebAssembly) behind
// the same PostgresDb as a real server, through a pool of one connection. `npm test` thereby runs
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
import {
  type PgNamedQuery,
  type PgPool,
  type PgResult,
  PostgresDb,
  toNumber,
} from "../db/postgres.ts";

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

/** One connection: a transaction holds it from BEGIN to COMMIT, other queries wait their turn. */
function onePool(db: PGlite): PgPool {
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
  // A named statement (PostgresOptions.prepare) runs as its text: PGlite has no pool to keep it.
  const run = async (query: string | PgNamedQuery, params?: unknown[]): Promise<PgResult> => {
    const text = typeof query === "string" ? query : query.text;
    const values = typeof query === "string" ? params : query.values;
    if (values === undefined) {
      const results = await db.exec(text);
      const last = results.at(-1);
      return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? 0 };
    }
    const result = await db.query<Record<string, unknown>>(text, values);
    return { rows: result.rows, rowCount: result.rowCount ?? result.affectedRows ?? 0 };
  };
  return {
    async connect() {
      const unlock = await lock();
      let released = false;
      return {
        query: run,
        release: () => {
          if (released) return;
          released = true;
          unlock();
        },
      };
    },
    async query(text, values) {
      const unlock = await lock();
      try {
        return await run(text, values);
      } finally {
        unlock();
      }
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
