// Migration 13, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 13,
  name: "account locks carry the token of the acquisition that holds them",
  sqlite: [`ALTER TABLE account_locks ADD COLUMN token TEXT`],
  postgres: [`ALTER TABLE account_locks ADD COLUMN token TEXT`],
});
