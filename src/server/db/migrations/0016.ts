// Migration 16, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 16,
  name: "accounts created by a team's invitation",
  sqlite: [
    `CREATE TABLE team_accounts (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  instance_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL
)`,
  ],
  postgres: [
    `CREATE TABLE team_accounts (
  user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  instance_id BIGINT NOT NULL,
  created_at BIGINT NOT NULL
)`,
  ],
});
