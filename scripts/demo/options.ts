// The command line of `npm run demo-data`, read into options or refused with a message that says
// what to write instead; and the data folder's check: a folder that holds a database is refused
// unless --fresh, so a season is never played over someone's data by accident.
import { existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DATABASE_FILE, SECRET_FILE } from "../../src/server/data-folder.ts";

/** The seed when none is given: every run without --seed plays the same season. */
export const DEFAULT_SEED = 2027;
/** Visitors when none are given: a minute or two on a two-core machine (decision 0092). */
export const DEFAULT_VISITORS = 3000;
export const DEFAULT_DATA_DIR = "demo-data";
const MAX_VISITORS = 1_000_000;

export type DemoOptions = { seed: number; visitors: number; dataDir: string; fresh: boolean };

export const USAGE = `usage: npm run demo-data -- [--seed N] [--visitors N] [--data-dir DIR] [--fresh]
  --seed N        the season's seed, a whole number (default ${DEFAULT_SEED}): the same seed plays the same season
  --visitors N    how many visitors arrive over the season (default ${DEFAULT_VISITORS})
  --data-dir DIR  the server's data folder to fill (default ./${DEFAULT_DATA_DIR})
  --fresh         delete the database already in DIR first`;

export type Parsed = { ok: true; options: DemoOptions } | { ok: false; message: string };

function wholeNumber(text: string | undefined, name: string, min: number, max: number) {
  if (text === undefined) return null;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    return `${name} must be a whole number from ${min} to ${max}, not "${text}"`;
  }
  return value;
}

export function parseDemoArgs(args: readonly string[], cwd: string): Parsed {
  let values: { seed?: string; visitors?: string; "data-dir"?: string; fresh?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        seed: { type: "string" },
        visitors: { type: "string" },
        "data-dir": { type: "string" },
        fresh: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const seed = wholeNumber(values.seed, "--seed", 0, 2 ** 32 - 1);
  if (typeof seed === "string") return { ok: false, message: seed };
  const visitors = wholeNumber(values.visitors, "--visitors", 1, MAX_VISITORS);
  if (typeof visitors === "string") return { ok: false, message: visitors };
  const dir = values["data-dir"];
  if (dir !== undefined && dir.trim() === "")
    return { ok: false, message: "--data-dir must name a folder" };
  return {
    ok: true,
    options: {
      seed: seed ?? DEFAULT_SEED,
      visitors: visitors ?? DEFAULT_VISITORS,
      dataDir: resolve(cwd, dir ?? DEFAULT_DATA_DIR),
      fresh: values.fresh ?? false,
    },
  };
}

/** The database's files in a data folder (SQLite's log and shared memory beside it). */
function databaseFiles(dataDir: string): string[] {
  const db = join(dataDir, DATABASE_FILE);
  return [db, `${db}-wal`, `${db}-shm`, `${db}-journal`];
}

/**
 * Makes the data folder ready for a new season: null when it is, else why not. With `fresh`, the
 * database and its secret are deleted (nothing else in the folder is touched).
 */
export function prepareDataDir(dataDir: string, fresh: boolean): string | null {
  const present = databaseFiles(dataDir).filter((f) => existsSync(f));
  if (present.length === 0) return null;
  if (!fresh) {
    return `${dataDir} already holds a database (${DATABASE_FILE}): add --fresh to replace it with a new season, or choose another folder with --data-dir`;
  }
  for (const file of [...present, join(dataDir, SECRET_FILE)]) rmSync(file, { force: true });
  return null;
}
