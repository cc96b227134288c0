// Provider webhook events applied once (issues 20 and 21): the first transaction to claim a
// provider's event id applies it; every later delivery of the same event (a retry, the same event
// reaching another server) finds it claimed and changes nothing. Called inside the transaction
// that applies the event, so a failed application leaves the event unclaimed for PayPal's or
// Stripe's next delivery. The Stripe branch holds the same module: keep one at merge.
import type { Queryable } from "./db.ts";

export async function claimWebhookEvent(
  tx: Queryable,
  input: { provider: string; eventId: string; eventType: string; at: number },
): Promise<boolean> {
  const result = await tx.run(
    `INSERT INTO webhook_events (provider, event_id, event_type, received_at)
     VALUES (?, ?, ?, ?) ON CONFLICT (provider, event_id) DO NOTHING`,
    [input.provider, input.eventId, input.eventType, input.at],
  );
  return result.changes === 1;
}
