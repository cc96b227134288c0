// PayPal's refunds and reversals (PAYMENT.SALE.REFUNDED / REVERSED): recorded as refunds on the
// sale's order; a full one of the period now paid ends it and cancels the subscription at PayPal.
// One of a sale no order records yet is kept and applied once the sale is (decision 0076).
import { Orders } from "../db/orders.ts";
import { Events } from "../db/outbox.ts";
import { PaypalKeptEvents } from "../db/paypal-kept-events.ts";
import { PaypalStrays } from "../db/paypal-strays.ts";
import { Users } from "../db/users.ts";
import {
  amountOf,
  claim,
  claimOnly,
  type PaypalEvent,
  str,
  underLock,
  type WebhookDeps,
  type WebhookOutcome,
} from "./paypal-events.ts";
import { planChangeOfRefund, recordRefund } from "./refunds.ts";

export async function moneyBack(deps: WebhookDeps, event: PaypalEvent): Promise<WebhookOutcome> {
  const { resource } = event;
  const reversal = event.event_type === "PAYMENT.SALE.REVERSED";
  // A refund names its sale; a reversal is the sale itself, reversed.
  const saleId = reversal ? str(resource.id) : str(resource.sale_id);
  const refundId = reversal ? `reversal:${str(resource.id)}` : str(resource.id);
  const cents = amountOf(resource);
  if (!saleId || !refundId || cents === null) return claimOnly(deps, event, "ignored");
  const order = await Orders.byChargeRef(deps.db, `paypal-sale:${saleId}`);
  if (!order) return keepUntilSaleKnown(deps, event, saleId);
  const user = await Users.byId(deps.db, order.userId);
  if (!user) return claimOnly(deps, event, "no account");
  return underLock(deps, user, async (fresh) => {
    const now = deps.clock.now();
    // A full refund or reversal that ends (or replaces) the plan billed now, by what the standing
    // payments still pay for (services/refunds.ts), and PayPal must not bill it again: cancelled
    // there first, so a failure leaves the event for PayPal's next delivery.
    const change = await planChangeOfRefund(deps.db, order, cents, now);
    const endsNow = change === "ended" || change === "replaced";
    if (endsNow && fresh.paypalSubscriptionId) {
      try {
        await deps.paypal.cancelSubscription(fresh.paypalSubscriptionId, "payment refunded");
      } catch (error) {
        deps.log.warn(`paypal: cancel after ${event.event_type} failed: ${String(error)}`);
        return { status: 503, reason: "PayPal unavailable" };
      }
    }
    const applied = await deps.db.transaction(async (tx) => {
      if (!(await claim(tx, deps, event))) return "duplicate";
      // The one refund path (services/refunds.ts): recorded once per PayPal refund id, and a
      // purchase given back in full ends what it bought, through the entitlement rules.
      const recorded = await recordRefund(
        tx,
        {
          orderId: order.id,
          amount: cents,
          currency: "USD",
          providerRefundId: refundId,
          // A reversal is money taken back by the buyer's bank or PayPal's dispute: lost.
          kind: reversal ? "dispute_lost" : "refund",
          provider: "paypal",
          now,
        },
        deps,
      );
      if (!recorded.recorded) return "refund recorded already";
      if (!endsNow) return "partial refund recorded";
      await Events.insert(tx, {
        kind: "cancellation",
        name: reversal ? "paypal_reversed" : "paypal_refunded",
        userId: fresh.id,
        payload: { orderId: order.id, saleId },
        now,
      });
      return recorded.ended ? "ended by refund" : "refund recorded";
    });
    return { status: 200, applied };
  });
}

const KEPT = "kept until its sale is known";

/**
 * A refund or reversal of a sale no order records yet: kept and acknowledged, never claimed and
 * dropped (decision 0076). Our own refund of a stray's payment concerns no order: claimed.
 */
async function keepUntilSaleKnown(
  deps: WebhookDeps,
  event: PaypalEvent,
  saleId: string,
): Promise<WebhookOutcome> {
  if (await PaypalStrays.refundOf(deps.db, saleId))
    return claimOnly(deps, event, "refund of a stray payment");
  const now = deps.clock.now();
  await deps.db.transaction((tx) =>
    PaypalKeptEvents.keep(tx, {
      eventId: event.id,
      saleId,
      eventType: event.event_type,
      body: JSON.stringify(event),
      at: now,
    }),
  );
  deps.log.warn(`paypal: ${event.event_type} ${event.id} of sale ${saleId}, unknown yet: kept`);
  // The sale recorded between the look above and the keep: its own pass may have missed this.
  if (await Orders.byChargeRef(deps.db, `paypal-sale:${saleId}`))
    await applyKeptEvents(deps, saleId);
  return { status: 200, applied: KEPT };
}

/**
 * Applies the kept events of one sale (or, without one, the oldest kept events: the sweep), each
 * as its delivery would be: its claim makes a second application change nothing. One that still
 * cannot be applied (its sale unknown, the account busy, PayPal unreachable) stays kept.
 */
export async function applyKeptEvents(
  deps: WebhookDeps,
  saleId?: string,
): Promise<{ applied: number; kept: number }> {
  const kept =
    saleId === undefined
      ? await PaypalKeptEvents.oldest(deps.db, 100)
      : await PaypalKeptEvents.forSale(deps.db, saleId);
  let applied = 0;
  for (const one of kept) {
    let outcome: WebhookOutcome;
    try {
      outcome = await moneyBack(deps, JSON.parse(one.body) as PaypalEvent);
    } catch (error) {
      deps.log.warn(`paypal: kept event ${one.eventId} not applied yet: ${String(error)}`);
      continue;
    }
    if (outcome.status !== 200 || outcome.applied === KEPT) continue;
    await deps.db.transaction((tx) => PaypalKeptEvents.drop(tx, one.eventId));
    applied += 1;
  }
  return { applied, kept: kept.length - applied };
}
