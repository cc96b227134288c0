// Migration 5, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 5,
  name: "account locks and scheduled plan changes",
  sqlite: [
    `CREATE TABLE account_locks (
  user_id INTEGER PRIMARY KEY,
  holder TEXT NOT NULL,
  acquired_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
)`,
    `ALTER TABLE subscriptions ADD COLUMN pending_product_code TEXT`,
    `ALTER TABLE subscriptions ADD COLUMN pending_seats INTEGER`,
    `ALTER TABLE subscriptions ADD COLUMN pending_at INTEGER`,
  ],
  postgres: [
    `CREATE TABLE account_locks (
  user_id BIGINT PRIMARY KEY,
  holder TEXT NOT NULL,
  acquired_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
)`,
    `ALTER TABLE subscriptions ADD COLUMN pending_product_code TEXT`,
    `ALTER TABLE subscriptions ADD COLUMN pending_seats BIGINT`,
    `ALTER TABLE subscriptions ADD COLUMN pending_at BIGINT`,
  ],
});
