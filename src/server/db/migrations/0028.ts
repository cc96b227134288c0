// Migration 28, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 28,
  name: "pending purchases: one charge while an outcome is unknown",
  sqlite: [
    `CREATE TABLE pending_purchases (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  idempotency_key TEXT NOT NULL,
  order_key TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  amount INTEGER NOT NULL,
  created_at INTEGER NOT NULL
)`,
  ],
  postgres: [
    `CREATE TABLE pending_purchases (
  user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  idempotency_key TEXT NOT NULL,
  order_key TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  amount BIGINT NOT NULL,
  created_at BIGINT NOT NULL
)`,
  ],
});
