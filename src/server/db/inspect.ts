// What a database file holds, found without changing it: start-up decides from this whether to
// open the file, and a file it refuses must stay byte for byte as it was, for a restore or a
// closer look. The file is read through SQLite's immutable mode (no locks, no -wal or -shm files
// created) unless a write-ahead log is beside it, which holds committed transactions: then
// through a read-only connection, which reads the log but never writes the database.
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { pathToFileURL } from "node:url";

export type DatabaseState =
  | { kind: "missing" }
  /** No database, but its write-ahead log: committed transactions without the file they go in. */
  | { kind: "log-only" }
  | { kind: "empty" }
  | { kind: "unreadable"; detail: string }
  | { kind: "not-sqlite" }
  | { kind: "damaged"; detail: string }
  /** A SQLite file without this server's tables: blank, or another program's. */
  | { kind: "no-schema"; tables: string[] }
  | { kind: "ok"; users: number };

const HEADER = Buffer.from("SQLite format 3\0", "latin1");

/** The tables every database of this server has had since its first migration. */
export const REQUIRED_TABLES = ["schema_migrations", "users"] as const;

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function readHeader(path: string): Buffer {
  const fd = openSync(path, "r");
  try {
    const header = Buffer.alloc(HEADER.length);
    const read = readSync(fd, header, 0, header.length, 0);
    return header.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** Whether a write-ahead log with content is beside the database. */
function hasLog(path: string): boolean {
  const wal = `${path}-wal`;
  return existsSync(wal) && statSync(wal).size > 0;
}

function openForInspection(path: string): DatabaseSync {
  if (hasLog(path)) return new DatabaseSync(path, { readOnly: true });
  const url = pathToFileURL(path);
  url.searchParams.set("immutable", "1");
  return new DatabaseSync(url, { readOnly: true });
}

export function inspectDatabase(path: string): DatabaseState {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      return { kind: "unreadable", detail: reason(error) };
    }
    // A new database would take this log as its own and replay another file's pages into it.
    return hasLog(path) ? { kind: "log-only" } : { kind: "missing" };
  }
  if (size === 0) return { kind: "empty" };
  let header: Buffer;
  try {
    header = readHeader(path);
  } catch (error) {
    return { kind: "unreadable", detail: reason(error) };
  }
  if (!header.equals(HEADER)) return { kind: "not-sqlite" };

  let db: DatabaseSync | null = null;
  try {
    db = openForInspection(path);
    // quick_check reads every page and checks each b-tree (not index contents against tables):
    // a truncated or overwritten file fails it, or fails to be read at all (SQLITE_CORRUPT).
    const problems = (db.prepare("PRAGMA quick_check(5)").all() as { quick_check: string }[])
      .map((row) => row.quick_check)
      .filter((line) => line !== "ok");
    if (problems.length > 0) return { kind: "damaged", detail: problems.join("; ") };
    const tables = (
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as {
        name: string;
      }[]
    ).map((row) => row.name);
    if (!REQUIRED_TABLES.every((table) => tables.includes(table))) {
      return { kind: "no-schema", tables };
    }
    const row = db.prepare("SELECT count(*) AS n FROM users").get() as { n: number };
    return { kind: "ok", users: row.n };
  } catch (error) {
    // SQLITE_CORRUPT (11) and SQLITE_NOTADB (26): "database disk image is malformed", "file is
    // not a database". Anything else (a lock, an I/O error) is reported as it is.
    const code = ((error as { errcode?: number }).errcode ?? 0) & 0xff;
    if (code === 11 || code === 26) return { kind: "damaged", detail: reason(error) };
    return { kind: "unreadable", detail: reason(error) };
  } finally {
    db?.close();
  }
}
