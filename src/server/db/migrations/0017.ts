// Migration 17, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 17,
  name: "the saved card's payment method",
  sqlite: [`ALTER TABLE users ADD COLUMN payment_method TEXT`],
  postgres: [`ALTER TABLE users ADD COLUMN payment_method TEXT`],
});
