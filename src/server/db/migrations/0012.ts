// Migration 12, released before the move to Kysely (decision 0082): its statements
// for each dialect exactly as they ran then, frozen. A released migration is never edited.
import { frozen } from "./frozen.ts";

export const migration = frozen({
  version: 12,
  name: "coupon redemptions: a first-term discount applies once per account and coupon",
  sqlite: [
    `CREATE TABLE coupon_redemptions (
  user_id INTEGER NOT NULL,
  coupon TEXT NOT NULL,
  order_id TEXT NOT NULL,
  redeemed_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, coupon)
)`,
  ],
  postgres: [
    `CREATE TABLE coupon_redemptions (
  user_id BIGINT NOT NULL,
  coupon TEXT NOT NULL,
  order_id TEXT NOT NULL,
  redeemed_at BIGINT NOT NULL,
  PRIMARY KEY (user_id, coupon)
)`,
  ],
});
