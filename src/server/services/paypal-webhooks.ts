// PayPal's webhooks (POST /api/5/webhooks/paypal, issue 21 item 2). Each delivery is verified
// with PayPal's verify-webhook-signature for PAYPAL_WEBHOOK_ID, its body passed on unchanged, and
// refused before anything changes when PayPal does not vouch for it. Each event is applied once:
// its id is claimed (db/webhook-events.ts) in the transaction that applies it, so a redelivery or
// the same event reaching a second server changes nothing. An event that cannot be applied now
// (the account busy, PayPal unreachable) answers 503 unclaimed: PayPal delivers it again.
//
// What each event does (decision 0041):
// - BILLING.SUBSCRIPTION.ACTIVATED: confirms the approval named by custom_id, exactly as the
//   browser's confirm call would (an approval whose confirm call never arrived becomes its order).
// - BILLING.SUBSCRIPTION.CANCELLED / SUSPENDED / EXPIRED: the subscription no longer renews; the
//   account keeps what it paid for until the period end (the entitlement rules read the cancelled
//   state and its end date), then the renewal worker ends it. One never confirmed closes its
//   approval and is a stray: what it took is refunded (services/paypal-strays.ts).
// - BILLING.SUBSCRIPTION.PAYMENT.FAILED: recorded; PayPal retries and suspends by itself.
// - PAYMENT.SALE.COMPLETED: the first payment's sale id joins its order; any later sale is one
//   renewal order for the next period, priced by the renewal rules and recorded as a card
//   renewal is (services/paid-renewal.ts: a change scheduled for the period end takes effect).
//   A sale of a stray (a subscription that paid for nothing here) is refunded.
// - PAYMENT.SALE.REFUNDED / REVERSED: recorded as refunds; a full refund or reversal of the period
//   now paid ends it now and cancels the subscription at PayPal. One of a sale no order records
//   yet (it overtook the sale's PAYMENT.SALE.COMPLETED) is kept, acknowledged, and applied once
//   the sale is recorded (decision 0076; db/paypal-kept-events.ts); the sweep retries the rest.
// - CUSTOMER.DISPUTE.CREATED: recorded for the operator; access follows the outcome (a reversal).
import { nextRenewalStep } from "../../domain/renewals/index.ts";
import { DAY_MS } from "../clock.ts";
import { PaypalApprovals } from "../db/ledger.ts";
import { Orders } from "../db/orders.ts";
import { Events } from "../db/outbox.ts";
import { PaypalStrays } from "../db/paypal-strays.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import type { PaypalTransmission } from "../payments/paypal-client.ts";
import { recordAfterSale, storedPriceChoice } from "./experiments.ts";
import { numberAfterCommit } from "./invoice-numbering.ts";
import { priceRenewal, recordPaidRenewal, renewalOrder } from "./paid-renewal.ts";
import {
  amountOf,
  claim,
  claimOnly,
  type PaypalEvent,
  retryOf,
  str,
  underLock,
  type WebhookDeps,
  type WebhookOutcome,
} from "./paypal-events.ts";
import { applyKeptEvents, moneyBack } from "./paypal-money-back.ts";
import { endStray, refundStraySale } from "./paypal-strays.ts";
import { confirmApproval } from "./paypal-subscriptions.ts";
import { billingState } from "./subscription-end.ts";

/** A sale more than this before the paid period's end is that period's own (first) payment. */
const EARLY_SALE_MS = 3 * DAY_MS;

export function transmissionOf(
  headers: Record<string, string | string[] | undefined>,
): PaypalTransmission | null {
  const h = (name: string) => {
    const v = headers[name];
    return typeof v === "string" && v.length > 0 && v.length <= 500 ? v : null;
  };
  const t = {
    authAlgo: h("paypal-auth-algo"),
    certUrl: h("paypal-cert-url"),
    transmissionId: h("paypal-transmission-id"),
    transmissionSig: h("paypal-transmission-sig"),
    transmissionTime: h("paypal-transmission-time"),
  };
  return Object.values(t).every((v) => v !== null) ? (t as PaypalTransmission) : null;
}

/** Verifies and applies one delivery. Never changes anything for an unverified one. */
export async function handlePaypalWebhook(
  deps: WebhookDeps & { webhookId: string },
  raw: string,
  headers: Record<string, string | string[] | undefined>,
): Promise<WebhookOutcome> {
  const transmission = transmissionOf(headers);
  if (transmission === null) return { status: 400, reason: "not_verified" };
  let event: PaypalEvent;
  try {
    const parsed = JSON.parse(raw) as Partial<PaypalEvent>;
    if (!str(parsed.id) || !str(parsed.event_type) || typeof parsed.resource !== "object")
      return { status: 400, reason: "invalid" };
    event = parsed as PaypalEvent;
  } catch {
    return { status: 400, reason: "invalid" };
  }
  let verified: boolean;
  try {
    verified = await deps.paypal.verifyWebhookSignature(deps.webhookId, transmission, raw);
  } catch (error) {
    deps.log.warn(`paypal webhook ${event.id}: verification call failed: ${String(error)}`);
    return { status: 503, reason: "verification unavailable" };
  }
  if (!verified) {
    deps.log.warn(`paypal webhook ${event.id}: PayPal did not verify it; nothing changed`);
    return { status: 400, reason: "not_verified" };
  }
  return applyEvent(deps, event);
}

async function applyEvent(deps: WebhookDeps, event: PaypalEvent): Promise<WebhookOutcome> {
  const { resource } = event;
  switch (event.event_type) {
    case "BILLING.SUBSCRIPTION.ACTIVATED":
    case "BILLING.SUBSCRIPTION.CREATED": {
      const subscriptionId = str(resource.id);
      const customId = str(resource.custom_id);
      if (!subscriptionId || !customId) return claimOnly(deps, event, "ignored");
      const result = await confirmApproval(deps, customId, subscriptionId, null);
      const retry = retryOf(result);
      if (retry) return retry;
      return claimOnly(deps, event, `confirm:${result.kind}`);
    }
    case "BILLING.SUBSCRIPTION.CANCELLED":
    case "BILLING.SUBSCRIPTION.SUSPENDED":
    case "BILLING.SUBSCRIPTION.EXPIRED":
      return endedAtPaypal(deps, event);
    case "BILLING.SUBSCRIPTION.PAYMENT.FAILED":
      deps.log.warn(
        `paypal: a payment of subscription ${str(resource.id)} failed (PayPal retries)`,
      );
      return claimOnly(deps, event, "recorded");
    case "PAYMENT.SALE.COMPLETED":
      return saleCompleted(deps, event);
    case "PAYMENT.SALE.REFUNDED":
    case "PAYMENT.SALE.REVERSED":
      return moneyBack(deps, event);
    case "CUSTOMER.DISPUTE.CREATED":
      deps.log.warn(
        `paypal: dispute ${str(resource.dispute_id) ?? "?"} opened; access follows its outcome`,
      );
      return claimOnly(deps, event, "recorded");
    default:
      return claimOnly(deps, event, "ignored");
  }
}

async function endedAtPaypal(deps: WebhookDeps, event: PaypalEvent): Promise<WebhookOutcome> {
  const subscriptionId = str(event.resource.id);
  if (!subscriptionId) return claimOnly(deps, event, "ignored");
  const user = await Users.byPaypalSubscription(deps.db, subscriptionId);
  if (!user) {
    // Never confirmed: its approval is closed, so no later confirm writes an order for it, and
    // a payment it took is refunded (a stray: services/paypal-strays.ts).
    const customId = str(event.resource.custom_id);
    const approval = customId ? await PaypalApprovals.get(deps.db, customId) : null;
    if (approval?.state === "created" && approval.paypal) {
      const ended = await endStray(
        deps,
        { id: subscriptionId },
        { approval, reason: `${event.event_type} before it was confirmed` },
      );
      // Confirmed meanwhile: PayPal's next delivery finds the account, and ends it there.
      if (ended.ordered) return { status: 503, reason: "confirmed meanwhile" };
      return claimOnly(deps, event, "unconfirmed approval closed");
    }
    return claimOnly(deps, event, "not a subscription of an order here");
  }
  return underLock(deps, user, async (fresh) => {
    const now = deps.clock.now();
    const applied = await deps.db.transaction(async (tx) => {
      if (!(await claim(tx, deps, event))) return "duplicate";
      // Only the subscription that pays now: an older one replaced by a plan change ends alone.
      if (fresh.paypalSubscriptionId !== subscriptionId) return "not the current subscription";
      const sub = await Subscriptions.get(tx, fresh.id);
      if (sub?.orderState !== "automatic" || sub.paymentProcessor !== "paypal")
        return "not renewing";
      await Subscriptions.update(tx, fresh.id, {
        orderState: "cancelled",
        prevOrderState: "automatic",
        updatedAt: now,
      });
      await Events.insert(tx, {
        kind: "cancellation",
        name: "paypal_subscription_ended",
        userId: fresh.id,
        payload: { subscriptionId, event: event.event_type },
        now,
      });
      await recordAfterSale(tx, deps.catalog, {
        userId: fresh.id,
        kind: "cancellation",
        orderId: sub.orderId,
        at: now,
      });
      return "cancelled";
    });
    return { status: 200, applied };
  });
}

async function saleCompleted(deps: WebhookDeps, event: PaypalEvent): Promise<WebhookOutcome> {
  const { resource } = event;
  const saleId = str(resource.id);
  const subscriptionId = str(resource.billing_agreement_id);
  const cents = amountOf(resource);
  const saleAt = Date.parse(str(resource.create_time) ?? "");
  if (!saleId || !subscriptionId || cents === null) return claimOnly(deps, event, "ignored");
  const user = await Users.byPaypalSubscription(deps.db, subscriptionId);
  if (!user) {
    // A payment of a subscription that pays for nothing here: refunded (once per sale).
    const stray = await PaypalStrays.get(deps.db, subscriptionId);
    if (stray) {
      const refunded = await refundStraySale(deps, stray, { saleId, cents });
      if (!refunded.ok) return { status: 503, reason: "stray payment not refunded yet" };
      return claimOnly(deps, event, "stray payment refunded");
    }
    // Its subscription is not confirmed yet (the ACTIVATED event or the confirm call comes next):
    // not claimed, so PayPal's next delivery finds the order to join.
    return { status: 503, reason: "subscription not confirmed yet" };
  }
  const chargeRef = `paypal-sale:${saleId}`;
  // The renewal's invoice, numbered once the account's lock is let go (decision 0062).
  let renewed: string | null = null;
  const outcome = await underLock(deps, user, async (fresh) => {
    const { db, catalog } = deps;
    const now = deps.clock.now();
    const at = Number.isFinite(saleAt) ? saleAt : now;
    const sub = await Subscriptions.get(db, fresh.id);
    if (!sub || sub.orderEnd === null) return claimOnly(deps, event, "no subscription");
    if (at < sub.orderEnd - EARLY_SALE_MS) {
      // The payment of the period already paid for: its sale id joins the order written at the
      // confirm (so a refund of it finds the order).
      const applied = await db.transaction(async (tx) => {
        if (!(await claim(tx, deps, event))) return "duplicate";
        // The same sale under another event id, after its renewal moved the period on: one
        // order, and the first payment's order never takes a renewal's sale id.
        if (await Orders.byChargeRef(tx, chargeRef)) return "sale recorded already";
        const first = await Orders.byChargeRef(tx, `paypal-first:${subscriptionId}`);
        if (first)
          await Orders.setChargeRef(tx, first.id, `paypal-first:${subscriptionId}`, chargeRef);
        return first ? "first payment" : "payment of the current period";
      });
      return { status: 200, applied };
    }
    const step = nextRenewalStep(catalog, billingState(sub), Math.max(at, sub.orderEnd));
    if (step.kind !== "renew" || fresh.paypalSubscriptionId !== subscriptionId) {
      // PayPal billed a subscription that has ended here: the sale is given back, and the
      // subscription must not bill again.
      const refunded = await refundStraySale(
        deps,
        { subscriptionId, approvalId: null, reason: `billed with no renewal due (${step.kind})` },
        { saleId, cents },
      );
      if (!refunded.ok) return { status: 503, reason: "payment for nothing not refunded yet" };
      try {
        await deps.paypal.cancelSubscription(subscriptionId, "ended in the product");
      } catch (error) {
        deps.log.warn(`paypal: ${subscriptionId} billed after it ended, not cancelled: ${error}`);
      }
      return claimOnly(deps, event, "no renewal due: refunded");
    }
    const priced = await priceRenewal(deps, fresh, sub, step, at);
    // Only the recorded renewal price (the pricing module's, on the subscription's recorded
    // basis) pays for a period: a sale of any other amount (terms changed at PayPal, a first-term
    // price repeated) extends nothing, and the team is told (issue 33 item 3).
    const charge = priced.ok && priced.charge.total === cents ? priced.charge : null;
    if (charge === null) {
      const expected = priced.ok ? priced.charge.total : null;
      deps.log.error(
        `paypal: sale ${saleId} of ${subscriptionId} took ${cents} cents, not the renewal price ${expected ?? "?"}: nothing extended, for the team to settle`,
      );
      const flagged = await db.transaction(async (tx) => {
        if (!(await claim(tx, deps, event))) return "duplicate";
        await Events.insert(tx, {
          kind: "payment",
          name: "paypal_sale_amount_mismatch",
          userId: fresh.id,
          payload: { subscriptionId, saleId, cents, expected },
          now,
        });
        return "amount differs: nothing extended, flagged";
      });
      return { status: 200, applied: flagged };
    }
    const order = renewalOrder(catalog, fresh, {
      productCode: step.productCode,
      seats: step.seats,
      subTotal: charge.subTotal,
      salesTax: charge.salesTax,
      total: cents,
      processor: "paypal",
      chargeRef,
      periodStart: step.start,
      periodEnd: step.end,
      termMonths: step.termMonths,
      idempotencyKey: `paypal-sale:${saleId}`,
      createdAt: now,
      priceChoice: await storedPriceChoice(db, catalog, fresh, at),
    });
    const applied = await db.transaction(async (tx) => {
      if (!(await claim(tx, deps, event))) return "duplicate";
      // The same sale under another event id (PayPal resends with a new one): one order.
      if (await Orders.byChargeRef(tx, chargeRef)) return "sale recorded already";
      // The period is recorded as a card renewal records it (services/paid-renewal.ts): a change
      // scheduled for the period end applied to the subscription and the workspace, the invoice
      // and its receipt.
      await recordPaidRenewal(tx, deps, {
        user: fresh,
        order,
        step,
        basis: priced.ok ? priced.charge.basis : undefined,
        charge,
        recovered: false,
        now,
      });
      return "renewed";
    });
    if (applied === "renewed") renewed = order.id;
    return { status: 200, applied };
  });
  if (renewed !== null) await numberAfterCommit(deps, renewed);
  // A refund or reversal that overtook this sale is applied now that the sale is recorded.
  if (outcome.status === 200) await applyKeptEvents(deps, saleId);
  return outcome;
}
