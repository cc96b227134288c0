// Migration 10, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 10,
  name: "one trial per person: the normalised address each trial was counted against",
  sqlite: [
    `CREATE TABLE trial_claims (
  identity TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL,
  product_code TEXT NOT NULL,
  created_at INTEGER NOT NULL
)`,
  ],
  postgres: [
    `CREATE TABLE trial_claims (
  identity TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL,
  product_code TEXT NOT NULL,
  created_at BIGINT NOT NULL
)`,
  ],
});
