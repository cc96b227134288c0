// Migration 7, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 7,
  name: "several servers: leases of idempotency keys and claims of outgoing mail",
  sqlite: [
    `ALTER TABLE idempotency_keys ADD COLUMN lease_until INTEGER`,
    `ALTER TABLE outbox ADD COLUMN claimed_until INTEGER`,
  ],
  postgres: [
    `ALTER TABLE idempotency_keys ADD COLUMN lease_until BIGINT`,
    `ALTER TABLE outbox ADD COLUMN claimed_until BIGINT`,
  ],
});
