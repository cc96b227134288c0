// Queries of the experiment_events table (migration 30; issue 36, decision 0089): one row per
// experiment, visitor and kind of event (exposure, checkout, purchase, renewal, cancellation).
// The primary key makes each recorded once: an insert that finds its row does nothing, whichever
// server wrote it first, and the exposure row's group is the visitor's group for good. Kysely's
// typed builder (decision 0082).
import type { Queryable } from "./db.ts";
import type { ExperimentEventsTable } from "./schema.ts";

export type ExperimentEventKind = ExperimentEventsTable["kind"];

export type ExperimentEvent = {
  experimentId: string;
  visitorId: string;
  kind: ExperimentEventKind;
  /** The group: a price-set id or "control". */
  group: string;
  at: number;
  userId: number | null;
  orderId: string | null;
};

export const ExperimentEvents = {
  /** Records the event unless its kind is recorded for this experiment and visitor: true if it was. */
  async record(q: Queryable, event: ExperimentEvent): Promise<boolean> {
    const result = await q.kysely
      .insertInto("experiment_events")
      .values({
        experiment_id: event.experimentId,
        visitor_id: event.visitorId,
        kind: event.kind,
        group_id: event.group,
        at: event.at,
        user_id: event.userId,
        order_id: event.orderId,
      })
      .onConflict((c) => c.columns(["experiment_id", "visitor_id", "kind"]).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  },

  /**
   * Records the exposure with `group` unless one is recorded, and answers the recorded group: the
   * first writer's, on any server.
   */
  async expose(q: Queryable, event: Omit<ExperimentEvent, "kind" | "orderId">): Promise<string> {
    await ExperimentEvents.record(q, { ...event, kind: "exposure", orderId: null });
    const row = await q.kysely
      .selectFrom("experiment_events")
      .select("group_id")
      .where("experiment_id", "=", event.experimentId)
      .where("visitor_id", "=", event.visitorId)
      .where("kind", "=", "exposure")
      .executeTakeFirst();
    return row?.group_id ?? event.group;
  },

  /** The visitor's recorded groups (exposure rows), by experiment id. */
  async groupsOf(q: Queryable, visitorId: string): Promise<Record<string, string>> {
    const rows = await q.kysely
      .selectFrom("experiment_events")
      .select(["experiment_id", "group_id"])
      .where("visitor_id", "=", visitorId)
      .where("kind", "=", "exposure")
      .execute();
    return Object.fromEntries(rows.map((r) => [r.experiment_id, r.group_id]));
  },

  /** The experiments a subscription's order was bought in, with the group (purchase rows). */
  async purchasesOfOrder(q: Queryable, orderId: string): Promise<ExperimentEvent[]> {
    const rows = await q.kysely
      .selectFrom("experiment_events")
      .selectAll()
      .where("order_id", "=", orderId)
      .where("kind", "=", "purchase")
      .execute();
    return rows.map(fromRow);
  },

  /** A visitor's events, oldest first (tests, the report). */
  async ofVisitor(q: Queryable, visitorId: string): Promise<ExperimentEvent[]> {
    const rows = await q.kysely
      .selectFrom("experiment_events")
      .selectAll()
      .where("visitor_id", "=", visitorId)
      .orderBy("at")
      .orderBy("experiment_id")
      .orderBy("kind")
      .execute();
    return rows.map(fromRow);
  },

  /** An experiment's events of one kind (the report, tests). */
  async ofExperiment(
    q: Queryable,
    experimentId: string,
    kind: ExperimentEventKind,
  ): Promise<ExperimentEvent[]> {
    const rows = await q.kysely
      .selectFrom("experiment_events")
      .selectAll()
      .where("experiment_id", "=", experimentId)
      .where("kind", "=", kind)
      .orderBy("at")
      .orderBy("visitor_id")
      .execute();
    return rows.map(fromRow);
  },
};

function fromRow(row: ExperimentEventsTable): ExperimentEvent {
  return {
    experimentId: row.experiment_id,
    visitorId: row.visitor_id,
    kind: row.kind,
    group: row.group_id,
    at: Number(row.at),
    userId: row.user_id === null ? null : Number(row.user_id),
    orderId: row.order_id,
  };
}
