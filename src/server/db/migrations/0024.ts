// Migration 24, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 24,
  name: "invoices waiting for their number; the numbering passes' lock",
  sqlite: [
    `CREATE TABLE waiting_invoices (
  order_id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL,
  total INTEGER NOT NULL,
  document TEXT NOT NULL,
  receipt TEXT,
  issued_at INTEGER NOT NULL
)`,
    `CREATE INDEX waiting_invoices_user ON waiting_invoices(user_id)`,
    `CREATE INDEX waiting_invoices_turn ON waiting_invoices(issued_at, order_id)`,
    `CREATE TABLE invoice_numbering (
  id INTEGER PRIMARY KEY,
  passes INTEGER NOT NULL
)`,
    `INSERT INTO invoice_numbering (id, passes) VALUES (1, 0)`,
  ],
  postgres: [
    `CREATE TABLE waiting_invoices (
  order_id TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL,
  total BIGINT NOT NULL,
  document TEXT NOT NULL,
  receipt TEXT,
  issued_at BIGINT NOT NULL
)`,
    `CREATE INDEX waiting_invoices_user ON waiting_invoices(user_id)`,
    `CREATE INDEX waiting_invoices_turn ON waiting_invoices(issued_at, order_id)`,
    `CREATE TABLE invoice_numbering (
  id BIGINT PRIMARY KEY,
  passes BIGINT NOT NULL
)`,
    `INSERT INTO invoice_numbering (id, passes) VALUES (1, 0)`,
  ],
});
