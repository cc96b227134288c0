// Migration 23, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 23,
  name: "renewals: the payment waiting for the customer; the sandbox's card setups",
  sqlite: [
    `ALTER TABLE renewals ADD COLUMN payment_id TEXT`,
    `ALTER TABLE renewals ADD COLUMN payment_key TEXT`,
    `CREATE TABLE sandbox_setups (
  idempotency_key TEXT PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  customer_id TEXT NOT NULL,
  token_id TEXT NOT NULL,
  state TEXT NOT NULL,
  created_at INTEGER NOT NULL
)`,
  ],
  postgres: [
    `ALTER TABLE renewals ADD COLUMN payment_id TEXT`,
    `ALTER TABLE renewals ADD COLUMN payment_key TEXT`,
    `CREATE TABLE sandbox_setups (
  idempotency_key TEXT PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  customer_id TEXT NOT NULL,
  token_id TEXT NOT NULL,
  state TEXT NOT NULL,
  created_at BIGINT NOT NULL
)`,
  ],
});
