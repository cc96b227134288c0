// Migration 21, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 21,
  name: "invoices and credit notes with gapless numbers; buyers' business details",
  sqlite: [
    `CREATE TABLE invoice_counters (
  series TEXT PRIMARY KEY,
  last_number INTEGER NOT NULL
)`,
    `CREATE TABLE invoices (
  number TEXT PRIMARY KEY,
  series TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  kind TEXT NOT NULL,
  user_id INTEGER NOT NULL,
  order_id TEXT NOT NULL,
  refers_to TEXT,
  refund_ref TEXT UNIQUE,
  credited_by TEXT,
  total INTEGER NOT NULL,
  document TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  UNIQUE (series, sequence)
)`,
    `CREATE INDEX invoices_user ON invoices(user_id, issued_at)`,
    `CREATE INDEX invoices_order ON invoices(order_id)`,
    `CREATE TABLE billing_details (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  organisation TEXT,
  tax_id TEXT,
  tax_id_country TEXT,
  tax_id_valid INTEGER NOT NULL DEFAULT 0,
  street TEXT,
  city TEXT,
  updated_at INTEGER NOT NULL
)`,
  ],
  postgres: [
    `CREATE TABLE invoice_counters (
  series TEXT PRIMARY KEY,
  last_number BIGINT NOT NULL
)`,
    `CREATE TABLE invoices (
  number TEXT PRIMARY KEY,
  series TEXT NOT NULL,
  sequence BIGINT NOT NULL,
  kind TEXT NOT NULL,
  user_id BIGINT NOT NULL,
  order_id TEXT NOT NULL,
  refers_to TEXT,
  refund_ref TEXT UNIQUE,
  credited_by TEXT,
  total BIGINT NOT NULL,
  document TEXT NOT NULL,
  issued_at BIGINT NOT NULL,
  UNIQUE (series, sequence)
)`,
    `CREATE INDEX invoices_user ON invoices(user_id, issued_at)`,
    `CREATE INDEX invoices_order ON invoices(order_id)`,
    `CREATE TABLE billing_details (
  user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  organisation TEXT,
  tax_id TEXT,
  tax_id_country TEXT,
  tax_id_valid BIGINT NOT NULL DEFAULT 0,
  street TEXT,
  city TEXT,
  updated_at BIGINT NOT NULL
)`,
  ],
});
