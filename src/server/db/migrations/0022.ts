// Migration 22, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 22,
  name: "PayPal subscriptions that paid for nothing, and their refunds",
  sqlite: [
    `CREATE TABLE paypal_strays (
  subscription_id TEXT PRIMARY KEY,
  approval_id TEXT,
  user_id INTEGER,
  reason TEXT NOT NULL,
  state TEXT NOT NULL,
  since INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  settled_at INTEGER
)`,
    `CREATE INDEX paypal_strays_state ON paypal_strays(state, created_at)`,
    `CREATE TABLE paypal_stray_refunds (
  sale_id TEXT PRIMARY KEY,
  subscription_id TEXT NOT NULL,
  refund_id TEXT NOT NULL,
  amount INTEGER NOT NULL,
  status TEXT NOT NULL,
  created_at INTEGER NOT NULL
)`,
    `CREATE INDEX paypal_stray_refunds_subscription ON paypal_stray_refunds(subscription_id)`,
  ],
  postgres: [
    `CREATE TABLE paypal_strays (
  subscription_id TEXT PRIMARY KEY,
  approval_id TEXT,
  user_id BIGINT,
  reason TEXT NOT NULL,
  state TEXT NOT NULL,
  since BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  settled_at BIGINT
)`,
    `CREATE INDEX paypal_strays_state ON paypal_strays(state, created_at)`,
    `CREATE TABLE paypal_stray_refunds (
  sale_id TEXT PRIMARY KEY,
  subscription_id TEXT NOT NULL,
  refund_id TEXT NOT NULL,
  amount BIGINT NOT NULL,
  status TEXT NOT NULL,
  created_at BIGINT NOT NULL
)`,
    `CREATE INDEX paypal_stray_refunds_subscription ON paypal_stray_refunds(subscription_id)`,
  ],
});
