// `npm run backup -- <folder>`: a consistent copy of DATA_DIR (SQLite) that a server can start
// on, taken while the server runs or not. Copying checkout.sqlite alone loses what its
// write-ahead log holds (a backup made that way started with 0 accounts), and copying the files
// one after the other while a server writes can tear them. This takes the database through
// SQLite's `VACUUM INTO` (one read transaction: a snapshot of every committed transaction, log
// included) into a new folder, with the server secret beside it (the database's reset links,
// codes and card fingerprints are keyed with it), the folder 0700 and the files 0600.
// To restore: stop the server, point DATA_DIR at the backup folder (or copy its two files into
// an empty DATA_DIR), start. With DATABASE_URL (PostgreSQL) use the database's own tools
// (pg_dump); SERVER_SECRET is kept wherever the deployment keeps its settings.
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  writeSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import {
  createPrivateFile,
  DATABASE_FILE,
  FILE_MODE,
  FOLDER_MODE,
  SECRET_FILE,
} from "../src/server/data-folder.ts";

export type BackupResult = { folder: string; accounts: number; bytes: number };

function syncPath(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Copies DATA_DIR's database (consistently) and secret into `destination`, a new or empty folder. */
export function backupDataFolder(dataDir: string, destination: string): BackupResult {
  const source = resolve(dataDir);
  const folder = resolve(destination);
  const dbPath = join(source, DATABASE_FILE);
  const secret = readFileSync(join(source, SECRET_FILE));
  mkdirSync(folder, { recursive: true, mode: FOLDER_MODE });
  if (readdirSync(folder).length > 0) {
    throw new Error(`${folder} is not empty: a backup goes into a new or empty folder.`);
  }
  const target = join(folder, DATABASE_FILE);
  createPrivateFile(target);
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.prepare("VACUUM INTO ?").run(target);
  } finally {
    db.close();
  }
  // The copy is whole in itself: no log, and not marked as open in a server (db/sqlite.ts).
  const copy = new DatabaseSync(target);
  let accounts: number;
  try {
    copy.exec("PRAGMA journal_mode = DELETE");
    copy.exec("PRAGMA user_version = 0");
    accounts = (copy.prepare("SELECT count(*) AS n FROM users").get() as { n: number }).n;
  } finally {
    copy.close();
  }
  const secretPath = join(folder, SECRET_FILE);
  const fd = openSync(secretPath, "wx", FILE_MODE);
  try {
    writeSync(fd, secret);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  syncPath(target);
  syncPath(folder);
  return { folder, accounts, bytes: readFileSync(target).length };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const destination = process.argv[2];
  if (process.env.DATABASE_URL) {
    console.error(
      "backup: DATABASE_URL is set: the database is PostgreSQL; back it up with pg_dump.",
    );
    process.exit(1);
  }
  if (!destination) {
    console.error("usage: npm run backup -- <new or empty folder>   (DATA_DIR, default .data)");
    process.exit(1);
  }
  try {
    const result = backupDataFolder(process.env.DATA_DIR ?? ".data", destination);
    console.log(
      `backup: ${result.accounts} account(s), ${result.bytes} bytes, in ${result.folder} (${DATABASE_FILE} and ${SECRET_FILE}). To restore, start a server with DATA_DIR=${result.folder}.`,
    );
  } catch (error) {
    console.error(`backup: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
