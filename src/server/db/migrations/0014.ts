// Migration 14, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 14,
  name: "one order per provider charge (unique charge_ref)",
  sqlite: [
    `UPDATE orders SET charge_ref = charge_ref || '#duplicate:' || id
  WHERE charge_ref IS NOT NULL
    AND seq > (SELECT MIN(o.seq) FROM orders o WHERE o.charge_ref = orders.charge_ref)`,
    `CREATE UNIQUE INDEX orders_charge_ref ON orders(charge_ref)`,
  ],
  postgres: [
    `UPDATE orders SET charge_ref = charge_ref || '#duplicate:' || id
  WHERE charge_ref IS NOT NULL
    AND seq > (SELECT MIN(o.seq) FROM orders o WHERE o.charge_ref = orders.charge_ref)`,
    `CREATE UNIQUE INDEX orders_charge_ref ON orders(charge_ref)`,
  ],
});
