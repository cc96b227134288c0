// Migration 26, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 26,
  name: "orders: found by account and Idempotency-Key",
  sqlite: [`CREATE INDEX orders_user_key ON orders(user_id, idempotency_key)`],
  postgres: [`CREATE INDEX orders_user_key ON orders(user_id, idempotency_key)`],
});
