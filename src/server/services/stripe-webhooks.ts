// Stripe's webhooks (POST /api/5/webhooks/stripe, handlers/webhooks.ts). What a delivery may do:
//   1. nothing at all unless its Stripe-Signature matches the raw body under STRIPE_WEBHOOK_SECRET
//      and its timestamp is within the tolerance, past or future (the SDK's constructEvent, and
//      the future side here; 400 before anything is read), and the event names an object (400
//      webhook_event_invalid otherwise: never a 500 for a signed event of another shape);
//   2. the object it names is fetched again from Stripe: events arrive late, twice and out of
//      order, so what counts is the object as it is now, never the event's copy;
//   3. the event is claimed (webhook_events) in the transaction that applies it, so a delivery
//      repeated, or delivered to two servers at once, changes things once.
// A fetch that fails answers 503 and claims nothing: Stripe delivers the event again later.
import Stripe from "stripe";
import type { Clock } from "../clock.ts";
import type { Db, Queryable } from "../db/db.ts";
import { Orders } from "../db/orders.ts";
import { Events } from "../db/outbox.ts";
import { Users } from "../db/users.ts";
import { claimWebhookEvent } from "../db/webhook-events.ts";
import type { Logger } from "../log.ts";
import type { InvoiceDeps } from "./invoices.ts";
import { type RecordedRefund, recordRefund } from "./refunds.ts";

export type StripeWebhookDeps = InvoiceDeps & {
  db: Db;
  clock: Clock;
  log: Logger;
  stripe: Stripe;
  webhookSecret: string;
};

/** How old a signed timestamp may be (Stripe's default tolerance). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

export type WebhookAnswer =
  | { kind: "bad_signature"; message: string }
  /** Signed, but with no object to act on (`data` null, `{}`, or an object without an id). */
  | { kind: "bad_event"; message: string }
  | { kind: "retry"; message: string }
  | { kind: "done"; duplicate: boolean; eventId: string };

/** What an event's object is now, fetched from Stripe. */
type Fresh =
  | { kind: "payment_intent"; intent: Stripe.PaymentIntent }
  | { kind: "setup_intent"; intent: Stripe.SetupIntent }
  | { kind: "refunds"; charge: Stripe.Charge; refunds: Stripe.Refund[] }
  | { kind: "dispute"; dispute: Stripe.Dispute }
  | { kind: "payment_method"; method: Stripe.PaymentMethod }
  | { kind: "customer"; customerId: string; deleted: boolean }
  | { kind: "ignored" };

/**
 * The signed timestamp (`t=`) of a Stripe-Signature header. The SDK refuses one older than the
 * tolerance but takes any future one ("age" below zero), so a signature made ahead of time (a
 * leaked secret, a signer's clock far ahead) would stay replayable until then: refused here.
 */
function signedAtSeconds(header: string): number | null {
  const t = /(?:^|,)\s*t=(\d{1,12})\s*(?:,|$)/.exec(header)?.[1];
  return t === undefined ? null : Number(t);
}

/** What every event must carry to be acted on: an object with its id (Stripe's shape). */
function eventProblem(event: Stripe.Event): string | null {
  const data = (event as { data?: unknown }).data;
  if (typeof data !== "object" || data === null) return "the event has no data";
  const object = (data as { object?: unknown }).object;
  if (typeof object !== "object" || object === null) return "the event's data has no object";
  const id = (object as { id?: unknown }).id;
  if (typeof id !== "string" || id === "") return "the event's object has no id";
  if (typeof event.id !== "string" || typeof event.type !== "string")
    return "the event has no id or type";
  return null;
}

function objectId(event: Stripe.Event): string {
  return (event.data.object as { id: string }).id;
}

async function fetchFresh(stripe: Stripe, event: Stripe.Event): Promise<Fresh> {
  const id = objectId(event);
  switch (event.type) {
    case "payment_intent.succeeded":
    case "payment_intent.payment_failed":
    case "payment_intent.requires_action":
      return { kind: "payment_intent", intent: await stripe.paymentIntents.retrieve(id) };
    case "setup_intent.succeeded":
      return {
        kind: "setup_intent",
        intent: await stripe.setupIntents.retrieve(id, { expand: ["payment_method"] }),
      };
    case "charge.refunded": {
      const charge = await stripe.charges.retrieve(id);
      const refunds = await stripe.refunds.list({ charge: id, limit: 100 });
      return { kind: "refunds", charge, refunds: refunds.data };
    }
    case "charge.dispute.created":
    case "charge.dispute.closed":
      return { kind: "dispute", dispute: await stripe.disputes.retrieve(id) };
    case "payment_method.detached":
      return { kind: "payment_method", method: await stripe.paymentMethods.retrieve(id) };
    case "customer.deleted": {
      const customer = await stripe.customers.retrieve(id);
      return { kind: "customer", customerId: id, deleted: customer.deleted === true };
    }
    default:
      return { kind: "ignored" };
  }
}

/** Orders that fell with a payment given back are owed back to the customer (decision 0075). */
function warnFell(log: Pick<Logger, "warn">, result: RecordedRefund & { recorded: true }): void {
  if (result.fell.length === 0) return;
  log.warn(
    `stripe webhook: SUPPORT order ${result.fell.join(", ")} rested on order ${result.order.id}, given back: what it cost is owed back to the customer (refund-order)`,
  );
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? value : value.id;
}

export async function handleStripeWebhook(
  deps: StripeWebhookDeps,
  raw: Buffer,
  signature: string | undefined,
): Promise<WebhookAnswer> {
  let event: Stripe.Event;
  try {
    if (!signature) throw new Error("no Stripe-Signature header");
    // Stripe signs with real time: the system's, not the server's clock (a local run's clock
    // may have been moved months ahead).
    event = deps.stripe.webhooks.constructEvent(
      raw,
      signature,
      deps.webhookSecret,
      SIGNATURE_TOLERANCE_SECONDS,
    );
    const signedAt = signedAtSeconds(signature);
    if (signedAt === null || signedAt - Date.now() / 1000 > SIGNATURE_TOLERANCE_SECONDS)
      throw new Error("Timestamp in the future, outside the tolerance zone");
  } catch (error) {
    return {
      kind: "bad_signature",
      message: error instanceof Error ? error.message : String(error),
    };
  }
  const problem = eventProblem(event);
  if (problem) return { kind: "bad_event", message: problem };
  let fresh: Fresh;
  try {
    fresh = await fetchFresh(deps.stripe, event);
  } catch (error) {
    const requestId = error instanceof Stripe.errors.StripeError ? error.requestId : undefined;
    deps.log.warn(
      `stripe webhook: ${event.type} ${event.id}: fetching ${objectId(event)} failed (request ${requestId ?? "none"}), Stripe will deliver it again`,
    );
    return { kind: "retry", message: error instanceof Error ? error.message : String(error) };
  }
  const now = deps.clock.now();
  const claimed = await deps.db.transaction(async (tx) => {
    if (
      !(await claimWebhookEvent(tx, {
        provider: "stripe",
        eventId: event.id,
        eventType: event.type,
        at: now,
      }))
    )
      return false;
    await apply(tx, deps, event, fresh, now);
    return true;
  });
  return { kind: "done", duplicate: !claimed, eventId: event.id };
}

async function apply(
  tx: Queryable,
  deps: StripeWebhookDeps,
  event: Stripe.Event,
  fresh: Fresh,
  now: number,
): Promise<void> {
  const { log } = deps;
  switch (fresh.kind) {
    case "payment_intent": {
      const { intent } = fresh;
      const order = await Orders.byChargeRef(tx, intent.id);
      // Orders are written by the purchase itself (it alone knows what was bought, at what price)
      // once the payment succeeded; a payment without one is the reconciliation's to settle.
      if (intent.status === "succeeded" && !order && intent.metadata?.order_key) {
        log.warn(
          `stripe webhook: payment ${intent.id} (order key ${intent.metadata.order_key}) succeeded without an order yet; the reconciliation settles it if no retry records it`,
        );
      }
      return;
    }
    case "setup_intent": {
      const { intent } = fresh;
      const method = intent.payment_method as Stripe.PaymentMethod | null;
      const customerId = idOf(intent.customer as string | { id: string } | null);
      if (intent.status !== "succeeded" || !customerId || method?.object !== "payment_method")
        return;
      // A card saved after the bank's step (3-D Secure on setup): the account's card from now.
      for (const user of await Users.byPaymentCustomer(tx, customerId)) {
        if (!method.card) continue;
        await Users.update(tx, user.id, {
          paymentMethod: method.id,
          cardBrand: method.card.brand.toLowerCase(),
          cardLast4: method.card.last4,
        });
      }
      return;
    }
    case "refunds": {
      const paymentId = idOf(fresh.charge.payment_intent as string | { id: string } | null);
      if (!paymentId) return;
      for (const refund of fresh.refunds) {
        if (refund.status !== "succeeded" && refund.status !== "pending") continue;
        const result = await recordRefund(
          tx,
          {
            chargeRef: paymentId,
            amount: refund.amount,
            currency: refund.currency,
            providerRefundId: refund.id,
            kind: "refund",
            provider: "stripe",
            now,
          },
          deps,
        );
        if (result.recorded) {
          log.info(
            `stripe webhook: refund ${refund.id} of ${refund.amount} recorded on order ${result.order.id}${result.ended ? " (refunded in full: what it bought has ended)" : ""}`,
          );
        } else if (result.reason === "no_order") {
          log.warn(
            `stripe webhook: refund ${refund.id} of payment ${paymentId}: no order holds it`,
          );
        }
        if (result.recorded) warnFell(log, result);
      }
      return;
    }
    case "dispute": {
      const { dispute } = fresh;
      const paymentId = idOf(dispute.payment_intent as string | { id: string } | null);
      const order = paymentId ? await Orders.byChargeRef(tx, paymentId) : null;
      if (event.type === "charge.dispute.created") {
        await Events.insert(tx, {
          kind: "payment",
          name: "dispute_opened",
          userId: order?.userId ?? null,
          payload: { disputeId: dispute.id, orderId: order?.id ?? null, amount: dispute.amount },
          now,
        });
        log.warn(`stripe webhook: dispute ${dispute.id} opened on order ${order?.id ?? "(none)"}`);
        return;
      }
      if (dispute.status === "lost" && paymentId) {
        const result = await recordRefund(
          tx,
          {
            chargeRef: paymentId,
            amount: dispute.amount,
            currency: dispute.currency,
            providerRefundId: dispute.id,
            kind: "dispute_lost",
            provider: "stripe",
            now,
          },
          deps,
        );
        log.warn(
          `stripe webhook: dispute ${dispute.id} lost on order ${order?.id ?? "(none)"}${result.recorded && result.ended ? ": what it bought has ended" : ""}`,
        );
        if (result.recorded) warnFell(log, result);
      }
      return;
    }
    case "payment_method": {
      const { method } = fresh;
      // Detached (by the issuer's update, the dashboard or the customer): no card on file.
      if (method.customer !== null) return;
      for (const user of await Users.byPaymentMethod(tx, method.id)) {
        await Users.update(tx, user.id, { paymentMethod: null, cardBrand: null, cardLast4: null });
      }
      return;
    }
    case "customer": {
      if (!fresh.deleted) return;
      // The next card saved makes a new customer (the provider's attachCard).
      for (const user of await Users.byPaymentCustomer(tx, fresh.customerId)) {
        await Users.update(tx, user.id, {
          paymentCustomer: null,
          paymentMethod: null,
          cardBrand: null,
          cardLast4: null,
        });
      }
      return;
    }
    case "ignored":
      return;
  }
}
