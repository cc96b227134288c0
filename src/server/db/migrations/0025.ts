// Migration 25, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 25,
  name: "renewals: the waiting payment retired",
  sqlite: [`ALTER TABLE renewals ADD COLUMN payment_retired TEXT`],
  postgres: [`ALTER TABLE renewals ADD COLUMN payment_retired TEXT`],
});
