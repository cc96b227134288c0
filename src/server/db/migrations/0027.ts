// Migration 27, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 27,
  name: "PayPal events kept until their sale is known",
  sqlite: [
    `CREATE TABLE paypal_kept_events (
  event_id TEXT PRIMARY KEY,
  sale_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  body TEXT NOT NULL,
  kept_at INTEGER NOT NULL
)`,
    `CREATE INDEX paypal_kept_events_sale ON paypal_kept_events(sale_id)`,
  ],
  postgres: [
    `CREATE TABLE paypal_kept_events (
  event_id TEXT PRIMARY KEY,
  sale_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  body TEXT NOT NULL,
  kept_at BIGINT NOT NULL
)`,
    `CREATE INDEX paypal_kept_events_sale ON paypal_kept_events(sale_id)`,
  ],
});
