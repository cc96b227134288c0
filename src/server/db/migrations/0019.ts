// Migration 19, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 19,
  name: "refunds of orders",
  sqlite: [
    `CREATE TABLE refunds (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL,
  user_id INTEGER NOT NULL,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  kind TEXT NOT NULL,
  provider TEXT NOT NULL,
  created_at INTEGER NOT NULL
)`,
    `CREATE INDEX refunds_order ON refunds(order_id)`,
  ],
  postgres: [
    `CREATE TABLE refunds (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL,
  user_id BIGINT NOT NULL,
  amount BIGINT NOT NULL,
  currency TEXT NOT NULL,
  kind TEXT NOT NULL,
  provider TEXT NOT NULL,
  created_at BIGINT NOT NULL
)`,
    `CREATE INDEX refunds_order ON refunds(order_id)`,
  ],
});
