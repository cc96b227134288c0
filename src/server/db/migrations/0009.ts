// Migration 9, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 9,
  name: "subscriptions record the prices they signed up at (renewals keep them)",
  sqlite: [`ALTER TABLE subscriptions ADD COLUMN price_basis TEXT`],
  postgres: [`ALTER TABLE subscriptions ADD COLUMN price_basis TEXT`],
});
