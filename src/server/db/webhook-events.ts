// Provider webhook events applied once (the seam shared by Stripe's and PayPal's webhooks, see
// docs/decisions/0037): an event is claimed inside the transaction that applies it, so a delivery
// repeated, or the same event delivered to two servers at once, changes things once. The second
// claim waits for the first transaction (primary key) and finds the row: false. Kysely's typed
// builder (decision 0082).
import type { Queryable } from "./db.ts";

export async function claimWebhookEvent(
  tx: Queryable,
  event: { provider: string; eventId: string; eventType: string; at: number },
): Promise<boolean> {
  const result = await tx.kysely
    .insertInto("webhook_events")
    .values({
      provider: event.provider,
      event_id: event.eventId,
      event_type: event.eventType,
      received_at: event.at,
    })
    .onConflict((c) => c.columns(["provider", "event_id"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
