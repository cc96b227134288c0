// The data folder (DATA_DIR): the database and the server secret, the key under which reset
// links, e-mail codes and card fingerprints are stored (auth/tokens.ts). Start-up opens it in two
// cases only:
//   - a new install: neither file. The database is made first, under a temporary name renamed
//     into place once migrated, and the secret last, so a first start that is interrupted leaves
//     nothing, or a database without accounts and no secret, which the next start completes;
//   - a server's folder: a valid secret and an intact, writable database with this server's tables.
// Anything else stops start-up with a StartupError that names DATA_DIR and the file and says what
// to do, and changes no file: an empty or damaged database used to be migrated and seeded as if
// new, every account and order silently gone.
//
// SQLite only: with DATABASE_URL the database is PostgreSQL and the secret is SERVER_SECRET,
// shared by every server (main.ts, config.ts); there is no data folder.

import { randomBytes } from "node:crypto";
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { type DatabaseState, inspectDatabase } from "./db/inspect.ts";
import { migrate } from "./db/migrations.ts";
import { SqliteDb } from "./db/sqlite.ts";
import { StartupError } from "./startup-error.ts";

export const DATABASE_FILE = "checkout.sqlite";
export const SECRET_FILE = "server-secret";
/** HMAC-SHA-256 keys shorter than its 32-byte output weaken it. */
export const MIN_SECRET_BYTES = 32;

/** The data folder and every file in it (database, log, secret, backups): the server's user only. */
export const FOLDER_MODE = 0o700;
export const FILE_MODE = 0o600;

/**
 * Creates an empty file readable by the owner only, for SQLite to fill: SQLite gives its -wal and
 * -shm files the mode of the database file, so they are the owner's only too.
 */
export function createPrivateFile(path: string): void {
  closeSync(openSync(path, "wx", FILE_MODE));
}

/**
 * Takes group and other permissions off files that exist (made by older versions), keeping the
 * owner's as they are (a read-only database stays read-only, and is refused as such).
 */
function tightenModes(paths: string[]): void {
  for (const path of paths) {
    try {
      const mode = statSync(path).mode & 0o777;
      if ((mode & 0o077) !== 0) chmodSync(path, mode & 0o700);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

export type DataFolder = { dir: string; db: SqliteDb; secret: Buffer; created: boolean };

type Place = { dir: string; dbPath: string; secretPath: string };

const AFRESH = "To start afresh on purpose, point DATA_DIR at an empty folder.";

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sqliteCode(error: unknown): number {
  return ((error as { errcode?: number }).errcode ?? 0) & 0xff;
}

function ensureWritableFolder(place: Place): void {
  const { dir, dbPath } = place;
  try {
    // Owner only: the database holds password hashes and personal data.
    mkdirSync(dir, { recursive: true, mode: FOLDER_MODE });
  } catch (error) {
    throw new StartupError(
      `DATA_DIR (${dir}) cannot be created (${reason(error)}). Create the folder, writable by the server's user, or set DATA_DIR to one that is.`,
    );
  }
  try {
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new StartupError(
      `DATA_DIR (${dir}) is read-only for the server's user (${reason(error)}): the database ${dbPath} needs a writable folder, as SQLite writes its log beside it. Make the folder writable by the server's user.`,
    );
  }
}

/** The secret in the folder, null when there is none; refuses one that is unreadable or weak. */
function readSecret(place: Place): Buffer | null {
  const { dir, secretPath } = place;
  let text: string;
  try {
    text = readFileSync(secretPath, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new StartupError(
      `The server secret ${secretPath} in DATA_DIR (${dir}) cannot be read (${reason(error)}). Make it readable by the server's user.`,
    );
  }
  // Buffer.from(…, "base64url") skips characters it does not know, so a damaged file would
  // quietly decode to a different key: check the alphabet first.
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) {
    throw new StartupError(
      `The server secret ${secretPath} in DATA_DIR (${dir}) is not base64url text (only A-Z, a-z, 0-9, "-" and "_" are allowed). Restore it from a backup.`,
    );
  }
  const secret = Buffer.from(text, "base64url");
  if (secret.length < MIN_SECRET_BYTES) {
    throw new StartupError(
      `The server secret ${secretPath} in DATA_DIR (${dir}) decodes to ${secret.length} bytes; at least ${MIN_SECRET_BYTES} are needed. Restore it from a backup, or replace it with ${MIN_SECRET_BYTES} random bytes in base64url (pending reset links and e-mail codes then stop working).`,
    );
  }
  return secret;
}

/** Why the database cannot be used as it is, or null when it can. */
function databaseProblem(state: DatabaseState, place: Place, hasSecret: boolean): string | null {
  const { dir, dbPath, secretPath } = place;
  const file = `The database ${dbPath} in DATA_DIR (${dir})`;
  const restore = hasSecret
    ? `Restore ${DATABASE_FILE} from a backup. ${AFRESH}`
    : `Restore ${DATABASE_FILE} and ${SECRET_FILE} from a backup. ${AFRESH}`;
  const notNew = hasSecret
    ? "DATA_DIR holds a server secret, so this is not a new install and starting would lose every account and order"
    : "there is no server secret either, and a new install is a folder with neither file";
  switch (state.kind) {
    case "missing":
      return hasSecret
        ? `DATA_DIR (${dir}) holds a server secret but not its database ${dbPath}: this is not a new install, and starting would lose every account and order. ${restore}`
        : null;
    case "log-only":
      return `DATA_DIR (${dir}) holds ${DATABASE_FILE}-wal, a log of committed transactions, but not the database ${dbPath} it belongs to. ${restore}`;
    case "empty":
      return `${file} is empty (0 bytes): it was truncated or replaced, and ${notNew}. ${restore}`;
    case "no-schema": {
      const holds =
        state.tables.length === 0
          ? "holds no tables"
          : `holds tables of another program (${state.tables.slice(0, 5).join(", ")}), not this server's`;
      return `${file} ${holds}; ${notNew}. ${restore}`;
    }
    case "not-sqlite":
      return `${file} is not a SQLite database (it does not start with "SQLite format 3"): it was overwritten or is another file. ${restore}`;
    case "damaged":
      return `${file} is damaged (SQLite: ${state.detail}): it was truncated or partly overwritten. ${restore}`;
    case "unreadable":
      return `${file} cannot be read (${state.detail}). Check its owner and permissions.`;
    case "log-missing":
      return `${file} was in use by a server that did not stop cleanly, or was copied while one ran, and its write-ahead log ${dbPath}-wal, which holds its latest committed transactions, is missing: starting would lose them silently. Put the log back beside it (a copy must take ${DATABASE_FILE}, ${DATABASE_FILE}-wal and ${SECRET_FILE} together, with the server stopped), or restore a backup made with \`npm run backup -- <folder>\`. To start on what the database file alone holds, losing the log's transactions knowingly, create an empty ${DATABASE_FILE}-wal.`;
    case "log-damaged":
      return `The write-ahead log ${dbPath}-wal of the database in DATA_DIR (${dir}) is damaged: ${state.detail}. Starting would lose committed transactions silently. Restore DATA_DIR from a backup made with \`npm run backup -- <folder>\`. To start on what the database file and the log's intact part hold, losing the rest knowingly, move ${DATABASE_FILE}-wal out of the folder and create an empty one.`;
    case "ok":
      return hasSecret || state.users === 0
        ? null
        : `${file} holds ${state.users} account(s) but DATA_DIR has no server secret ${secretPath}: the reset links, e-mail codes and cards stored in it are keyed with that secret and would no longer match. Restore ${SECRET_FILE} from the backup the database came from (a new secret is made only for a new install).`;
  }
}

/** Syncs a rename to disk; platforms that cannot fsync a folder (Windows) skip it. */
function syncFolder(dir: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Nothing more can be done where folders cannot be synced.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

async function createDatabase(place: Place, now: number): Promise<void> {
  const temp = `${place.dbPath}.new`;
  // Left by an interrupted first start: it never held an account, it was never renamed in.
  for (const leftover of [temp, `${temp}-journal`, `${temp}-wal`, `${temp}-shm`]) {
    rmSync(leftover, { force: true });
  }
  createPrivateFile(temp);
  // Rollback-journal mode until it is in place, so that closing leaves one file to rename.
  const db = new SqliteDb(temp, { wal: false });
  try {
    await migrate(db, now);
  } finally {
    db.close();
  }
  renameSync(temp, place.dbPath);
  syncFolder(place.dir);
}

function createSecret(place: Place): Buffer {
  const secret = randomBytes(MIN_SECRET_BYTES);
  const temp = `${place.secretPath}.new`;
  const fd = openSync(temp, "w", FILE_MODE);
  try {
    writeSync(fd, secret.toString("base64url"));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, place.secretPath);
  syncFolder(place.dir);
  return secret;
}

function readOnlyError(place: Place, detail: string): StartupError {
  return new StartupError(
    `The database ${place.dbPath} in DATA_DIR (${place.dir}) is read-only for the server's user (${detail}). Make it, and any ${DATABASE_FILE}-wal and ${DATABASE_FILE}-shm beside it, writable by the server's user.`,
  );
}

/** Opens the checked database for writing, proves a write is possible, applies migrations. */
async function openWritable(place: Place, now: number): Promise<SqliteDb> {
  const { dir, dbPath } = place;
  for (const path of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) {
    try {
      accessSync(path, constants.W_OK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        throw readOnlyError(place, reason(error));
      }
    }
  }
  tightenModes([dbPath, `${dbPath}-wal`, `${dbPath}-shm`]);
  let db: SqliteDb;
  try {
    db = new SqliteDb(dbPath);
  } catch (error) {
    if (sqliteCode(error) === 8) throw readOnlyError(place, reason(error));
    throw new StartupError(
      `The database ${dbPath} in DATA_DIR (${dir}) cannot be opened (${reason(error)}).`,
    );
  }
  try {
    // SQLite opens a file it may not write read-only without a word (and BEGIN IMMEDIATE then
    // takes no write lock), so a write that changes nothing proves it; root passes every
    // permission check, and only this finds a read-only file system or an immutable file.
    db.raw.exec("BEGIN IMMEDIATE");
    try {
      db.raw.exec("DELETE FROM users WHERE 0");
    } finally {
      if (db.raw.isTransaction) db.raw.exec("ROLLBACK");
    }
  } catch (error) {
    db.close();
    if (sqliteCode(error) === 8) throw readOnlyError(place, reason(error));
    throw new StartupError(
      `The database ${dbPath} in DATA_DIR (${dir}) cannot be written (${reason(error)}).`,
    );
  }
  try {
    await migrate(db, now);
  } catch (error) {
    db.close();
    throw new StartupError(
      `The database ${dbPath} in DATA_DIR (${dir}) could not be brought up to date: ${reason(error)}`,
    );
  }
  // From here until close the database file says its log holds its latest transactions, so
  // that a copy of the file without the log is refused rather than started on (inspect.ts).
  db.markOpen();
  return db;
}

/** Opens DATA_DIR's database and secret, making both for a new install, or refuses. */
export async function openDataFolder(dataDir: string, now: number): Promise<DataFolder> {
  const dir = resolve(dataDir);
  const place: Place = {
    dir,
    dbPath: join(dir, DATABASE_FILE),
    secretPath: join(dir, SECRET_FILE),
  };
  ensureWritableFolder(place);
  const secret = readSecret(place);
  const state = inspectDatabase(place.dbPath);
  const problem = databaseProblem(state, place, secret !== null);
  if (problem !== null) throw new StartupError(problem);
  const created = state.kind === "missing";
  if (created) await createDatabase(place, now);
  const db = await openWritable(place, now);
  tightenModes([place.secretPath]);
  return { dir, db, secret: secret ?? createSecret(place), created };
}
