// Migration 20, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 20,
  name: "PayPal plans, and the PayPal subscription of each approval",
  sqlite: [
    `CREATE TABLE paypal_plans (
  plan_key TEXT PRIMARY KEY,
  paypal_plan_id TEXT NOT NULL,
  product_code TEXT NOT NULL,
  term_months INTEGER NOT NULL,
  unit_cents INTEGER NOT NULL,
  created_at INTEGER NOT NULL
)`,
    `ALTER TABLE paypal_approvals ADD COLUMN plan_id TEXT`,
    `ALTER TABLE paypal_approvals ADD COLUMN quantity INTEGER`,
    `ALTER TABLE paypal_approvals ADD COLUMN first_unit INTEGER`,
    `ALTER TABLE paypal_approvals ADD COLUMN unit_cents INTEGER`,
    `ALTER TABLE paypal_approvals ADD COLUMN subscription_id TEXT`,
    `CREATE UNIQUE INDEX paypal_approvals_subscription ON paypal_approvals(subscription_id)`,
    `CREATE INDEX paypal_approvals_state ON paypal_approvals(state, created_at)`,
    `CREATE INDEX users_paypal_subscription ON users(paypal_subscription_id)`,
  ],
  postgres: [
    `CREATE TABLE paypal_plans (
  plan_key TEXT PRIMARY KEY,
  paypal_plan_id TEXT NOT NULL,
  product_code TEXT NOT NULL,
  term_months BIGINT NOT NULL,
  unit_cents BIGINT NOT NULL,
  created_at BIGINT NOT NULL
)`,
    `ALTER TABLE paypal_approvals ADD COLUMN plan_id TEXT`,
    `ALTER TABLE paypal_approvals ADD COLUMN quantity BIGINT`,
    `ALTER TABLE paypal_approvals ADD COLUMN first_unit BIGINT`,
    `ALTER TABLE paypal_approvals ADD COLUMN unit_cents BIGINT`,
    `ALTER TABLE paypal_approvals ADD COLUMN subscription_id TEXT`,
    `CREATE UNIQUE INDEX paypal_approvals_subscription ON paypal_approvals(subscription_id)`,
    `CREATE INDEX paypal_approvals_state ON paypal_approvals(state, created_at)`,
    `CREATE INDEX users_paypal_subscription ON users(paypal_subscription_id)`,
  ],
});
