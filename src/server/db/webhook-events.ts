// Provider webhook events applied once (the seam shared by Stripe's and PayPal's webhooks, see
// docs/decisions/0037): an event is claimed inside the transaction that applies it, so a delivery
// repeated, or the same event delivered to two servers at once, changes things once. The second
// claim waits for the first transaction (primary key) and finds the row: false.
import type { Queryable } from "./db.ts";

export async function claimWebhookEvent(
  tx: Queryable,
  event: { provider: string; eventId: string; eventType: string; at: number },
): Promise<boolean> {
  const result = await tx.run(
    `INSERT INTO webhook_events (provider, event_id, event_type, received_at)
     VALUES (?, ?, ?, ?) ON CONFLICT (provider, event_id) DO NOTHING`,
    [event.provider, event.eventId, event.eventType, event.at],
  );
  return result.changes === 1;
}
