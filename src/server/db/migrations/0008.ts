// Migration 8, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 8,
  name: "orders record the catalogue version and price set they were priced with",
  sqlite: [
    `ALTER TABLE orders ADD COLUMN catalog_version TEXT`,
    `ALTER TABLE orders ADD COLUMN price_set TEXT`,
  ],
  postgres: [
    `ALTER TABLE orders ADD COLUMN catalog_version TEXT`,
    `ALTER TABLE orders ADD COLUMN price_set TEXT`,
  ],
});
