// PayPal events kept until what they concern is known (decision 0076): a refund or reversal of a
// sale that no order records yet. Kept whole (the event as PayPal sent it) and taken out once it
// has been applied; applying it claims its event id as any delivery does
// (db/webhook-events.ts), so a kept event applied twice changes things once. Kysely's typed
// builder (decision 0082).
import type { Selectable } from "kysely";
import type { Queryable } from "./db.ts";
import type { PaypalKeptEventsTable } from "./schema-payments.ts";

export type KeptEvent = { eventId: string; saleId: string; eventType: string; body: string };

export const PaypalKeptEvents = {
  /** Keeps an event; a redelivery of one kept already changes nothing. */
  async keep(q: Queryable, event: KeptEvent & { at: number }): Promise<void> {
    await q.kysely
      .insertInto("paypal_kept_events")
      .values({
        event_id: event.eventId,
        sale_id: event.saleId,
        event_type: event.eventType,
        body: event.body,
        kept_at: event.at,
      })
      .onConflict((c) => c.column("event_id").doNothing())
      .execute();
  },
  async forSale(q: Queryable, saleId: string): Promise<KeptEvent[]> {
    const rows = await q.kysely
      .selectFrom("paypal_kept_events")
      .selectAll()
      .where("sale_id", "=", saleId)
      .orderBy("kept_at")
      .orderBy("event_id")
      .execute();
    return rows.map(keptOf);
  },
  /** The oldest kept events (the sweep's look at what is still waiting). */
  async oldest(q: Queryable, limit: number): Promise<KeptEvent[]> {
    const rows = await q.kysely
      .selectFrom("paypal_kept_events")
      .selectAll()
      .orderBy("kept_at")
      .orderBy("event_id")
      .limit(limit)
      .execute();
    return rows.map(keptOf);
  },
  async drop(q: Queryable, eventId: string): Promise<void> {
    await q.kysely.deleteFrom("paypal_kept_events").where("event_id", "=", eventId).execute();
  },
};

function keptOf(r: Selectable<PaypalKeptEventsTable>): KeptEvent {
  return { eventId: r.event_id, saleId: r.sale_id, eventType: r.event_type, body: r.body };
}
