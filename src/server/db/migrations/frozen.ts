import { type Kysely, sql } from "kysely";
import type { Dialect } from "../db.ts";

/** A migration of the list in ../migrations.ts, applied by Kysely's Migrator. */
export type Migration = {
  version: number;
  name: string;
  /** Runs inside the migration's transaction, with the dialect of the database. */
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
};

/** A migration released before Kysely: its statements for each dialect as they ran then. */
export type FrozenMigration = {
  version: number;
  name: string;
  sqlite: readonly string[];
  postgres: readonly string[];
};

/** The frozen statements of the database's dialect, one by one, in the migration's transaction. */
export function frozen(migration: FrozenMigration): Migration {
  return {
    version: migration.version,
    name: migration.name,
    async up(db: Kysely<unknown>, dialect: Dialect) {
      for (const statement of migration[dialect]) await sql.raw(statement).execute(db);
    },
  };
}
