// Migration 30: price experiments (issue 36). A visitor's stable id on the account, so that the
// group follows the customer across sign-up and devices, and one row per experiment, visitor and
// kind of event (exposure, checkout, purchase, renewal, cancellation): the primary key makes each
// recorded once, whichever server sees it first. The exposure row fixes the visitor's group.
import type { Kysely } from "kysely";
import type { Migration } from "./frozen.ts";

export const migration: Migration = {
  version: 30,
  name: "price experiments: visitor ids and experiment events",
  async up(db: Kysely<unknown>, dialect) {
    const bigint = dialect === "postgres" ? "bigint" : "integer";
    await db.schema.alterTable("users").addColumn("visitor_id", "text").execute();
    await db.schema
      .createTable("experiment_events")
      .addColumn("experiment_id", "text", (c) => c.notNull())
      .addColumn("visitor_id", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("group_id", "text", (c) => c.notNull())
      .addColumn("at", bigint, (c) => c.notNull())
      .addColumn("user_id", bigint)
      .addColumn("order_id", "text")
      .addPrimaryKeyConstraint("experiment_events_pk", ["experiment_id", "visitor_id", "kind"])
      .execute();
    await db.schema
      .createIndex("experiment_events_kind")
      .on("experiment_events")
      .columns(["experiment_id", "kind", "at"])
      .execute();
    await db.schema.createIndex("users_visitor").on("users").column("visitor_id").execute();
  },
};
