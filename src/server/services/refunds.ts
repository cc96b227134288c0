// Money given back on an order (a refund or a reversal at the provider), recorded once per
// provider refund id. MINIMAL COPY from the PayPal branch: the Stripe branch owns this service
// (issue 20, with the credit note of the invoices branch); the lead keeps one at merge.
import { randomId } from "../auth/tokens.ts";
import type { Queryable } from "../db/db.ts";

/** Records a refund; false when this provider refund was recorded already. */
export async function recordRefund(
  tx: Queryable,
  input: {
    orderId: string;
    providerRefundId: string;
    amountCents: number;
    at: number;
    reason: string;
  },
): Promise<boolean> {
  const result = await tx.run(
    `INSERT INTO refunds (id, order_id, provider_refund_id, amount_cents, reason, created_at)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (provider_refund_id) DO NOTHING`,
    [
      randomId("re"),
      input.orderId,
      input.providerRefundId,
      input.amountCents,
      input.reason.slice(0, 200),
      input.at,
    ],
  );
  return result.changes === 1;
}

/** What was given back on an order so far, in cents. */
export async function refundedOn(q: Queryable, orderId: string): Promise<number> {
  const row = await q.get<{ n: number | string | null }>(
    "SELECT SUM(amount_cents) AS n FROM refunds WHERE order_id = ?",
    [orderId],
  );
  return Number(row?.n ?? 0);
}
