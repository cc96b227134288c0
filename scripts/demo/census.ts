// What the season left in the database, counted: the figures the script prints at the end and
// the test compares between runs (the same seed, the same figures). Read-only, through the
// server's typed query builder on its own connection.
import type { Queryable } from "../../src/server/db/db.ts";

export type Census = {
  users: number;
  /** Orders by kind (purchase, renewal, trial, ...). */
  orders: Record<string, number>;
  /** The sum of every order's total, in cents. */
  ordersTotalCents: number;
  invoices: number;
  /** Subscriptions by order state (automatic, cancelled, free, ...). */
  subscriptions: Record<string, number>;
  /** Experiment events: experiment id → group → kind → count. */
  experimentEvents: Record<string, Record<string, Record<string, number>>>;
};

export async function takeCensus(q: Queryable): Promise<Census> {
  const db = q.kysely;
  const [users, orders, invoices, subscriptions, events] = await Promise.all([
    db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirst(),
    db
      .selectFrom("orders")
      .select([
        "kind",
        (eb) => eb.fn.countAll<number>().as("n"),
        (eb) => eb.fn.sum<number>("total").as("cents"),
      ])
      .groupBy("kind")
      .orderBy("kind")
      .execute(),
    db
      .selectFrom("invoices")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirst(),
    db
      .selectFrom("subscriptions")
      .select(["order_state", (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy("order_state")
      .orderBy("order_state")
      .execute(),
    db
      .selectFrom("experiment_events")
      .select(["experiment_id", "group_id", "kind", (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy(["experiment_id", "group_id", "kind"])
      .orderBy("experiment_id")
      .orderBy("group_id")
      .orderBy("kind")
      .execute(),
  ]);
  const experimentEvents: Census["experimentEvents"] = {};
  for (const e of events) {
    const byGroup = experimentEvents[e.experiment_id] ?? {};
    byGroup[e.group_id] = { ...byGroup[e.group_id], [e.kind]: Number(e.n) };
    experimentEvents[e.experiment_id] = byGroup;
  }
  return {
    users: Number(users?.n ?? 0),
    orders: Object.fromEntries(orders.map((o) => [o.kind, Number(o.n)])),
    ordersTotalCents: orders.reduce((sum, o) => sum + Number(o.cents ?? 0), 0),
    invoices: Number(invoices?.n ?? 0),
    subscriptions: Object.fromEntries(subscriptions.map((s) => [s.order_state, Number(s.n)])),
    experimentEvents,
  };
}
