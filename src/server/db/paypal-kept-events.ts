// PayPal events kept until what they concern is known (decision 0076): a refund or reversal of a
// sale that no order records yet. Kept whole (the event as PayPal sent it) and taken out once it
// has been applied; applying it claims its event id as any delivery does
// (db/webhook-events.ts), so a kept event applied twice changes things once.
import type { Queryable } from "./db.ts";

export type KeptEvent = { eventId: string; saleId: string; eventType: string; body: string };

export const PaypalKeptEvents = {
  /** Keeps an event; a redelivery of one kept already changes nothing. */
  async keep(q: Queryable, event: KeptEvent & { at: number }): Promise<void> {
    await q.run(
      `INSERT INTO paypal_kept_events (event_id, sale_id, event_type, body, kept_at)
       VALUES (?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING`,
      [event.eventId, event.saleId, event.eventType, event.body, event.at],
    );
  },
  async forSale(q: Queryable, saleId: string): Promise<KeptEvent[]> {
    const rows = await q.all<Record<string, unknown>>(
      "SELECT * FROM paypal_kept_events WHERE sale_id = ? ORDER BY kept_at, event_id",
      [saleId],
    );
    return rows.map(keptOf);
  },
  /** The oldest kept events (the sweep's look at what is still waiting). */
  async oldest(q: Queryable, limit: number): Promise<KeptEvent[]> {
    const rows = await q.all<Record<string, unknown>>(
      "SELECT * FROM paypal_kept_events ORDER BY kept_at, event_id LIMIT ?",
      [limit],
    );
    return rows.map(keptOf);
  },
  async drop(q: Queryable, eventId: string): Promise<void> {
    await q.run("DELETE FROM paypal_kept_events WHERE event_id = ?", [eventId]);
  },
};

function keptOf(r: Record<string, unknown>): KeptEvent {
  return {
    eventId: String(r.event_id),
    saleId: String(r.sale_id),
    eventType: String(r.event_type),
    body: String(r.body),
  };
}
