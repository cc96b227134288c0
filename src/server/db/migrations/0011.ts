// Migration 11, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 11,
  name: "rate-limit buckets shared by every server on one database (decision 0028)",
  sqlite: [
    `CREATE TABLE rate_limits (
  id TEXT PRIMARY KEY,
  tokens REAL NOT NULL,
  updated_at INTEGER NOT NULL,
  took INTEGER NOT NULL DEFAULT 0
)`,
    `CREATE INDEX rate_limits_updated_at ON rate_limits (updated_at)`,
  ],
  postgres: [
    `CREATE TABLE rate_limits (
  id TEXT PRIMARY KEY,
  tokens DOUBLE PRECISION NOT NULL,
  updated_at BIGINT NOT NULL,
  took BIGINT NOT NULL DEFAULT 0
)`,
    `CREATE INDEX rate_limits_updated_at ON rate_limits (updated_at)`,
  ],
});
