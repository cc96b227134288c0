// What a database file holds, found without changing it: start-up decides from this whether to
// open the file, and a file it refuses must stay byte for byte as it was, for a restore or a
// closer look. The file is read through SQLite's immutable mode (no locks, no -wal or -shm files
// created) unless a write-ahead log is beside it, which holds committed transactions: then
// through a read-only connection, which reads the log but never writes the database.
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
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
  /** The database was open in a server that did not stop cleanly, and its log is gone. */
  | { kind: "log-missing" }
  /** The write-ahead log beside it is cut or damaged: SQLite would drop its transactions. */
  | { kind: "log-damaged"; detail: string }
  | { kind: "ok"; users: number };

const HEADER = Buffer.from("SQLite format 3\0", "latin1");

/** The tables every database of this server has had since its first migration. */
const REQUIRED_TABLES = ["users"] as const;

/** The record of applied migrations: Kysely's Migrator's, or schema_migrations before it. */
const MIGRATION_TABLES = ["kysely_migration", "schema_migrations"] as const;

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The database header's user_version (offset 60), which a server sets to 1 while it has the
 * database open (its log then holds its latest transactions) and back to 0 when it closes
 * (db/sqlite.ts markOpen). Read from the file itself, so it says what the file alone holds.
 */
const OPEN_MARK_OFFSET = 60;

function readHeader(path: string, length = HEADER.length): Buffer {
  const fd = openSync(path, "r");
  try {
    const header = Buffer.alloc(length);
    const read = readSync(fd, header, 0, header.length, 0);
    return header.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** SQLite's WAL checksum over `length` bytes (a multiple of 8) from `start`, continuing `sums`. */
function walChecksum(
  buf: Buffer,
  start: number,
  length: number,
  sums: [number, number],
  bigEndian: boolean,
): [number, number] {
  let [s1, s2] = sums;
  for (let i = start; i < start + length; i += 8) {
    const x0 = bigEndian ? buf.readUInt32BE(i) : buf.readUInt32LE(i);
    const x1 = bigEndian ? buf.readUInt32BE(i + 4) : buf.readUInt32LE(i + 4);
    s1 = (s1 + x0 + s2) >>> 0;
    s2 = (s2 + x1 + s1) >>> 0;
  }
  return [s1, s2];
}

/**
 * What is wrong with a write-ahead log, or null when nothing is. SQLite reads a log up to its
 * first bad frame and silently drops the rest, or all of it when the header is bad: a log cut in
 * half after a kill lost 11 of 20 acknowledged orders, a flipped header byte all 20. Checked here:
 * the header (magic, checksum), every frame of the current generation (the header's salts) with
 * its running checksum, and that the file holds whole frames (frames of an earlier generation,
 * left after a checkpoint, are whole too and are skipped), but for the header of a frame whose
 * page a kill stopped.
 * A frame after the last commit is a transaction that was never acknowledged: not damage.
 */
function walProblem(walPath: string): string | null {
  const buf = readFileSync(walPath);
  if (buf.length === 0) return null;
  if (buf.length < 32) return `it is ${buf.length} bytes, shorter than a log's header`;
  const magic = buf.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) {
    return "its header is not a SQLite write-ahead log's (overwritten or damaged)";
  }
  const bigEndian = magic === 0x377f0683;
  const pageSize = buf.readUInt32BE(8);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) {
    return `its header names an impossible page size (${pageSize})`;
  }
  let sums = walChecksum(buf, 0, 24, [0, 0], bigEndian);
  if (sums[0] !== buf.readUInt32BE(24) || sums[1] !== buf.readUInt32BE(28)) {
    return "its header fails its checksum (damaged): SQLite would ignore every transaction in it";
  }
  const frameSize = 24 + pageSize;
  const salt1 = buf.readUInt32BE(16);
  const salt2 = buf.readUInt32BE(20);
  const partial = (buf.length - 32) % frameSize;
  // SQLite writes a frame in two writes, its 24-byte header and then its page: a process killed
  // between them leaves the header of the frame being appended (this generation's salts) and no
  // page. That frame's transaction was never acknowledged (its commit frame comes last, whole),
  // and SQLite ignores it: not damage. Any other remainder is a log cut short.
  const killedMidFrame =
    partial === 24 &&
    buf.readUInt32BE(buf.length - 16) === salt1 &&
    buf.readUInt32BE(buf.length - 12) === salt2;
  if (partial !== 0 && !killedMidFrame) {
    return `it ends in the middle of a frame (${buf.length} bytes: a 32-byte header and frames of ${frameSize}), so it was cut short: SQLite would drop the transactions at its end`;
  }
  for (let offset = 32, frame = 1; offset + frameSize <= buf.length; offset += frameSize, frame++) {
    if (buf.readUInt32BE(offset + 8) !== salt1 || buf.readUInt32BE(offset + 12) !== salt2) break;
    sums = walChecksum(buf, offset, 8, sums, bigEndian);
    sums = walChecksum(buf, offset + 24, pageSize, sums, bigEndian);
    if (sums[0] !== buf.readUInt32BE(offset + 16) || sums[1] !== buf.readUInt32BE(offset + 20)) {
      return `frame ${frame} fails its checksum (damaged): SQLite would drop it and every transaction after it`;
    }
  }
  return null;
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
    header = readHeader(path, 100);
  } catch (error) {
    return { kind: "unreadable", detail: reason(error) };
  }
  if (!header.subarray(0, HEADER.length).equals(HEADER)) return { kind: "not-sqlite" };

  // The log before SQLite reads it: SQLite would quietly drop what a damaged one holds.
  const wal = `${path}-wal`;
  const markedOpen =
    header.length >= OPEN_MARK_OFFSET + 4 && header.readUInt32BE(OPEN_MARK_OFFSET) !== 0;
  try {
    if (!existsSync(wal)) {
      if (markedOpen) return { kind: "log-missing" };
    } else {
      const problem = walProblem(wal);
      if (problem !== null) return { kind: "log-damaged", detail: problem };
    }
  } catch (error) {
    return { kind: "unreadable", detail: reason(error) };
  }

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
    if (
      !REQUIRED_TABLES.every((table) => tables.includes(table)) ||
      !MIGRATION_TABLES.some((table) => tables.includes(table))
    ) {
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
