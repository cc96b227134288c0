// Migration 29, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 29,
  name: "order items: what each payment paid for",
  sqlite: [
    `CREATE TABLE order_items (
  order_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  user_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  product_code TEXT,
  quantity INTEGER NOT NULL,
  amount INTEGER NOT NULL,
  period_start INTEGER,
  period_end INTEGER,
  rests_on TEXT,
  PRIMARY KEY (order_id, position)
)`,
    `CREATE INDEX order_items_user ON order_items(user_id)`,
    `INSERT INTO order_items (order_id, position, user_id, kind, product_code, quantity, amount, period_start, period_end, rests_on)
  SELECT o.id, 0, o.user_id,
         CASE WHEN o.seats > l.seats THEN 'seats' ELSE 'essentials' END,
         o.product_code,
         CASE WHEN o.seats > l.seats THEN o.seats - l.seats ELSE 1 END,
         o.sub_total, o.period_start, o.period_end, b.id
    FROM orders o
    JOIN orders b ON b.seq = (
      SELECT MIN(e.seq) FROM orders e
       WHERE e.user_id = o.user_id AND e.kind = 'plan' AND e.seq < o.seq
         AND e.period_end = o.period_end)
    JOIN orders l ON l.seq = (
      SELECT MAX(e.seq) FROM orders e
       WHERE e.user_id = o.user_id AND e.kind = 'plan' AND e.seq < o.seq
         AND e.period_end = o.period_end)
   WHERE o.kind = 'plan' AND o.prorate_amount = 0`,
    `INSERT INTO order_items (order_id, position, user_id, kind, product_code, quantity, amount, period_start, period_end, rests_on)
  SELECT o.id, 0, o.user_id, 'plan', o.product_code, o.seats, o.sub_total + o.prorate_amount,
         o.period_start, o.period_end, NULL
    FROM orders o
   WHERE o.kind = 'plan' AND NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id)`,
    `INSERT INTO order_items (order_id, position, user_id, kind, product_code, quantity, amount, period_start, period_end, rests_on)
  SELECT o.id, 1, o.user_id, 'credit', NULL, 1, o.prorate_amount, NULL, NULL,
         (SELECT e.id FROM orders e
           WHERE e.user_id = o.user_id AND e.kind = 'plan' AND e.seq < o.seq
             AND e.period_end = (
               SELECT l.period_end FROM orders l
                WHERE l.user_id = o.user_id AND l.kind = 'plan' AND l.seq < o.seq
                ORDER BY l.seq DESC LIMIT 1)
           ORDER BY e.seq LIMIT 1)
    FROM orders o
   WHERE o.kind = 'plan' AND o.prorate_amount > 0`,
    `INSERT INTO order_items (order_id, position, user_id, kind, product_code, quantity, amount, period_start, period_end, rests_on)
  SELECT o.id, 0, o.user_id, 'export_credits', o.product_code,
         CASE WHEN o.add_ons = '[]' THEN 1
              ELSE 2 + LENGTH(o.add_ons) - LENGTH(REPLACE(o.add_ons, ',', '')) END,
         0, NULL, NULL, NULL
    FROM orders o
   WHERE o.kind = 'one_off'`,
  ],
  postgres: [
    `CREATE TABLE order_items (
  order_id TEXT NOT NULL,
  position BIGINT NOT NULL,
  user_id BIGINT NOT NULL,
  kind TEXT NOT NULL,
  product_code TEXT,
  quantity BIGINT NOT NULL,
  amount BIGINT NOT NULL,
  period_start BIGINT,
  period_end BIGINT,
  rests_on TEXT,
  PRIMARY KEY (order_id, position)
)`,
    `CREATE INDEX order_items_user ON order_items(user_id)`,
    `INSERT INTO order_items (order_id, position, user_id, kind, product_code, quantity, amount, period_start, period_end, rests_on)
  SELECT o.id, 0, o.user_id,
         CASE WHEN o.seats > l.seats THEN 'seats' ELSE 'essentials' END,
         o.product_code,
         CASE WHEN o.seats > l.seats THEN o.seats - l.seats ELSE 1 END,
         o.sub_total, o.period_start, o.period_end, b.id
    FROM orders o
    JOIN orders b ON b.seq = (
      SELECT MIN(e.seq) FROM orders e
       WHERE e.user_id = o.user_id AND e.kind = 'plan' AND e.seq < o.seq
         AND e.period_end = o.period_end)
    JOIN orders l ON l.seq = (
      SELECT MAX(e.seq) FROM orders e
       WHERE e.user_id = o.user_id AND e.kind = 'plan' AND e.seq < o.seq
         AND e.period_end = o.period_end)
   WHERE o.kind = 'plan' AND o.prorate_amount = 0`,
    `INSERT INTO order_items (order_id, position, user_id, kind, product_code, quantity, amount, period_start, period_end, rests_on)
  SELECT o.id, 0, o.user_id, 'plan', o.product_code, o.seats, o.sub_total + o.prorate_amount,
         o.period_start, o.period_end, NULL
    FROM orders o
   WHERE o.kind = 'plan' AND NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id)`,
    `INSERT INTO order_items (order_id, position, user_id, kind, product_code, quantity, amount, period_start, period_end, rests_on)
  SELECT o.id, 1, o.user_id, 'credit', NULL, 1, o.prorate_amount, NULL, NULL,
         (SELECT e.id FROM orders e
           WHERE e.user_id = o.user_id AND e.kind = 'plan' AND e.seq < o.seq
             AND e.period_end = (
               SELECT l.period_end FROM orders l
                WHERE l.user_id = o.user_id AND l.kind = 'plan' AND l.seq < o.seq
                ORDER BY l.seq DESC LIMIT 1)
           ORDER BY e.seq LIMIT 1)
    FROM orders o
   WHERE o.kind = 'plan' AND o.prorate_amount > 0`,
    `INSERT INTO order_items (order_id, position, user_id, kind, product_code, quantity, amount, period_start, period_end, rests_on)
  SELECT o.id, 0, o.user_id, 'export_credits', o.product_code,
         CASE WHEN o.add_ons = '[]' THEN 1
              ELSE 2 + LENGTH(o.add_ons) - LENGTH(REPLACE(o.add_ons, ',', '')) END,
         0, NULL, NULL, NULL
    FROM orders o
   WHERE o.kind = 'one_off'`,
  ],
});
