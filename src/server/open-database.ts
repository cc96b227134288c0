// The database a server starts on, migrated before anything listens (used by main.ts and by the
// support scripts, which open the same database the same way).
import type { Config } from "./config.ts";
import { openDataFolder } from "./data-folder.ts";
import type { Db } from "./db/db.ts";
import { migrate } from "./db/migrations.ts";
import { openPostgres, redactCredentials, redactDatabaseUrl } from "./db/postgres.ts";
import type { StartOptions } from "./start-options.ts";
import { StartupError } from "./startup-error.ts";

export class ConfigError extends StartupError {
  readonly errors: string[];
  constructor(errors: string[]) {
    super(`Invalid configuration:\n  ${errors.join("\n  ")}`);
    this.name = "ConfigError";
    this.errors = errors;
  }
}

/** A database URL without its credentials, for messages (db/postgres.ts). */
export const redactUrl = redactDatabaseUrl;

/**
 * The database and the key of stored secrets: a database given by the caller (tests), PostgreSQL
 * with DATABASE_URL and SERVER_SECRET (shared by every server), or else the SQLite database and
 * secret file of DATA_DIR, checked by data-folder.ts (which refuses a missing, empty, damaged or
 * read-only one rather than start afresh on it). Migrations are applied before anything listens.
 */
export async function openDatabase(
  config: Config,
  options: StartOptions,
  now: number,
): Promise<{ db: Db; secret: Buffer; label: string }> {
  if (options.database) {
    await migrate(options.database.db, now);
    return options.database;
  }
  if (config.database && config.serverSecret) {
    const where = redactUrl(config.database.url);
    const db = openPostgres(config.database);
    try {
      await migrate(db, now);
    } catch (error) {
      await db.close();
      const reason = redactCredentials(
        error instanceof Error ? error.message : String(error),
        config.database.url,
      );
      throw new StartupError(
        `The PostgreSQL database of DATABASE_URL (${where}) could not be reached or brought up to date: ${reason}. Check that the server answers, that the URL names an existing database and a user that may create tables in it.`,
      );
    }
    return { db, secret: config.serverSecret, label: where };
  }
  const folder = await openDataFolder(config.dataDir, now);
  return { db: folder.db, secret: folder.secret, label: folder.dir };
}
