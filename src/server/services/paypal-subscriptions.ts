// PayPal subscriptions through PayPal's Subscriptions API (issue 21; decision 0041). The server
// prepares each purchase (the order key that becomes the subscription's custom_id, the PayPal
// plan and quantity of domain/paypal/terms.ts), and writes the order only after it has fetched
// the subscription from PayPal itself and found it ACTIVE with that key, plan, quantity and first
// payment: never on the browser's word. The confirm is idempotent per order key, so the browser's
// onApprove, the ACTIVATED webhook and the orphan sweep may all arrive: one order.
import type { Catalog, PlanEntry } from "../../domain/catalog/catalog-schema.ts";
import {
  checkSubscription,
  type PaypalTerms,
  paypalTerms,
  type SubscriptionCheck,
} from "../../domain/paypal/terms.ts";
import { resultingProduct } from "../../domain/pricing/index.ts";
import {
  currentPriceBasis,
  recurringCampaignOf,
  renewalCharge,
} from "../../domain/renewals/index.ts";
import type { AppDeps } from "../context.ts";
import { type PaypalApproval, PaypalApprovals } from "../db/ledger.ts";
import { Users } from "../db/users.ts";
import {
  PaypalApiError,
  type PaypalClient,
  type PaypalSubscription,
} from "../payments/paypal-client.ts";
import type { Account } from "./account.ts";
import { tryWithAccountLock } from "./account-lock.ts";
import { type AccountPricing, priceForAccount } from "./account-pricing.ts";
import { numberAfterCommit } from "./invoice-numbering.ts";
import { invoiceOrder, taxLocationFor } from "./invoices.ts";
import { applyOrder, buildOrder } from "./orders.ts";
import { ensurePaypalPlan } from "./paypal-plans.ts";
import { endStray } from "./paypal-strays.ts";

/**
 * The sandbox's stand-in for PayPal's approval page (handlers/paypal-approval.ts): where the
 * subscription call sends the customer when the server has no PAYPAL_*.
 */
export const PAYPAL_APPROVAL_PATH = "/dev/paypal/approve";

export type PaypalDeps = Pick<AppDeps, "db" | "catalog" | "clock" | "log" | "mailer" | "config"> & {
  paypal: PaypalClient;
};

/**
 * The PayPal terms of a purchase: its first payment is the pricing's total; what it renews at is
 * the renewal the renewal rules would charge this account for the product it will hold (its
 * prices, its recurring campaign, its sales tax), tax included, since PayPal charges exactly the
 * plan's price times the quantity.
 */
export function termsOf(
  catalog: Catalog,
  account: Account,
  pricing: AccountPricing,
  input: {
    plan: PlanEntry;
    addOns: readonly string[];
    coupon: string | null;
    /** SELLER_COUNTRY: the renewals are taxed by the invoices' rule (reverse charge: no VAT). */
    sellerCountry: string;
  },
  now: number,
): PaypalTerms | null {
  const product = resultingProduct(catalog, input.plan, input.addOns);
  const user = account.user;
  const renewal = renewalCharge(
    catalog,
    {
      productCode: product,
      seats: pricing.seats,
      priceChoice: account.priceChoice,
      recurringCampaign: recurringCampaignOf(catalog, {
        productCode: product,
        atMs: now,
        coupon: input.coupon,
      }),
      tax: taxLocationFor({ seller: { country: input.sellerCountry } }, user, account.billing),
      basis: currentPriceBasis(catalog, product, {
        priceChoice: account.priceChoice,
        atMs: now,
      }),
      periodStart: now,
    },
    now,
  );
  if (!renewal.ok) return null;
  return paypalTerms({
    productCode: product,
    termMonths: renewal.charge.termMonths,
    seats: pricing.seats,
    multiUser: input.plan.multiUser,
    firstTotalCents: pricing.summary.total,
    renewalTotalCents: renewal.charge.total,
  });
}

/**
 * The PayPal plan for these terms: the one recorded, else found or made at PayPal now
 * (services/paypal-plans.ts).
 */
export async function planIdFor(deps: PaypalDeps, terms: PaypalTerms): Promise<string> {
  return (await ensurePaypalPlan(deps, terms)).row.paypalPlanId;
}

/** A subscription that has taken, or may take, a payment (what a stray must have undone). */
function paidOrRunning(sub: PaypalSubscription): boolean {
  return (
    sub.status === "ACTIVE" || sub.status === "SUSPENDED" || Boolean(sub.billing_info?.last_payment)
  );
}

export type ConfirmResult =
  | { kind: "ordered"; orderId: string }
  | { kind: "pending" }
  | {
      kind: "refused";
      reason: Exclude<SubscriptionCheck, { ok: true }>["reason"] | "not_ours" | "ended";
    }
  | { kind: "not_found" }
  | { kind: "busy" }
  | { kind: "unavailable"; message: string };

function factsOf(sub: PaypalSubscription) {
  return {
    status: sub.status,
    customId: sub.custom_id,
    planId: sub.plan_id,
    quantity: sub.quantity,
    lastPayment: sub.billing_info?.last_payment
      ? {
          currency: sub.billing_info.last_payment.amount.currency_code,
          value: sub.billing_info.last_payment.amount.value,
        }
      : null,
    cycles: (sub.plan?.billing_cycles ?? []).map((c) => ({
      sequence: c.sequence ?? 0,
      value: c.pricing_scheme?.fixed_price.value,
      ...(typeof c.total_cycles === "number" ? { totalCycles: c.total_cycles } : {}),
    })),
  };
}

function termsOfApproval(approval: PaypalApproval): PaypalTerms | null {
  if (!approval.paypal) return null;
  return {
    planKey: "",
    productCode: approval.productCode,
    termMonths: 0,
    unitCents: approval.paypal.unitCents,
    quantity: approval.paypal.quantity,
    firstUnitCents: approval.paypal.firstUnitCents,
    firstTotalCents: approval.total,
  };
}

/**
 * Confirms an approval with PayPal's subscription: the order is written only when PayPal says
 * the subscription is ACTIVE with this approval's key, plan, quantity and first payment.
 */
/**
 * An approval priced again for the account as it is now: the pricing, or null when it no longer
 * costs what the customer approved (PayPal charges the approved price; another one charges
 * nothing here).
 */
export function approvedPricing(
  catalog: Catalog,
  account: Account,
  approval: PaypalApproval,
  sellerCountry: string,
): AccountPricing | null {
  const priced = priceForAccount(catalog, account, {
    targetProduct: approval.productCode,
    seats: approval.seats,
    addOns: approval.addOns,
    coupon: approval.coupon ?? undefined,
    sellerCountry,
  });
  return priced.ok && priced.pricing.summary.total === approval.total ? priced.pricing : null;
}

export async function confirmApproval(
  deps: PaypalDeps,
  approvalId: string,
  subscriptionId: string,
  expectedUserId: number | null,
): Promise<ConfirmResult> {
  const { db, catalog, paypal, log } = deps;
  const approval = await PaypalApprovals.get(db, approvalId);
  if (!approval?.paypal || (expectedUserId !== null && approval.userId !== expectedUserId))
    return { kind: "not_found" };
  if (
    approval.state === "approved" &&
    approval.subscriptionId === subscriptionId &&
    approval.orderId
  )
    return { kind: "ordered", orderId: approval.orderId };
  let sub: PaypalSubscription;
  try {
    sub = await paypal.getSubscription(subscriptionId);
  } catch (error) {
    if (error instanceof PaypalApiError && error.status === 404)
      return { kind: "refused", reason: "not_ours" };
    return { kind: "unavailable", message: error instanceof Error ? error.message : String(error) };
  }
  // Somebody else's subscription (another order key) is none of this approval's business.
  if (sub.custom_id !== approval.id) return { kind: "refused", reason: "wrong_custom_id" };
  if (sub.status === "APPROVAL_PENDING" || sub.status === "APPROVED") {
    // Remembered, so the orphan sweep can ask PayPal about it if no confirm call ever comes.
    await db.transaction((tx) => PaypalApprovals.linkSubscription(tx, approval.id, sub.id));
    return { kind: "pending" };
  }
  if (approval.state === "approved") {
    // A second subscription for an order already written (two approvals of one checkout): it
    // pays for nothing.
    if (paidOrRunning(sub))
      await endStray(deps, sub, { approval, reason: `a second subscription for ${approval.id}` });
    return { kind: "refused", reason: "not_ours" };
  }
  if (approval.state !== "created") {
    if (paidOrRunning(sub))
      await endStray(deps, sub, { approval, reason: `approval ${approval.state} in the checkout` });
    return { kind: "refused", reason: "ended" };
  }
  const terms = termsOfApproval(approval) as PaypalTerms;
  const check = checkSubscription(factsOf(sub), {
    orderKey: approval.id,
    planId: approval.paypal.planId,
    terms,
  });
  if (!check.ok) {
    if (check.reason === "not_active") {
      // SUSPENDED, CANCELLED or EXPIRED before it was ever confirmed: nothing to sell, and
      // whatever it took is given back.
      await endStray(deps, sub, { approval, reason: `${sub.status} before it was confirmed` });
      return { kind: "refused", reason: "ended" };
    }
    await endStray(deps, sub, {
      approval,
      reason: `does not match order ${approval.id}: ${check.reason}`,
    });
    return { kind: "refused", reason: check.reason };
  }
  // The account is priced again under its lock: between the preparation and now it may have
  // bought something else, and then this payment pays for nothing here.
  const outcome = await tryWithAccountLock(deps, approval.userId, async ({ user, account }) => {
    const pricing = approvedPricing(catalog, account, approval, deps.config.seller.country);
    if (pricing === null) return { kind: "stale" as const };
    const now = deps.clock.now();
    const order = buildOrder(
      catalog,
      account,
      pricing,
      { code: approval.productCode, addOns: approval.addOns },
      // The first payment's sale id arrives with PAYMENT.SALE.COMPLETED, which replaces this.
      { processor: "paypal", chargeRef: `paypal-first:${sub.id}`, idempotencyKey: approval.id },
      now,
    );
    const written = await db.transaction(async (tx) => {
      if (!(await PaypalApprovals.settle(tx, approval.id, "approved", order.id))) return false;
      if (!(await PaypalApprovals.linkSubscription(tx, approval.id, sub.id))) {
        throw new Error(`approval ${approval.id} is linked to another subscription`);
      }
      await applyOrder(tx, catalog, account, order, pricing.summary);
      await invoiceOrder(tx, deps, { order, summary: pricing.summary, account });
      await Users.update(tx, user.id, { paypalSubscriptionId: sub.id });
      return true;
    });
    // A plan change: the subscription it replaces must not bill again.
    const replaced =
      user.paypalSubscriptionId && user.paypalSubscriptionId !== sub.id
        ? user.paypalSubscriptionId
        : null;
    return written
      ? { kind: "ordered" as const, orderId: order.id, replaced }
      : { kind: "raced" as const };
  });
  if (!outcome.locked) return { kind: "busy" };
  if (outcome.value.kind === "stale") {
    await endStray(deps, sub, {
      approval,
      reason: "the account changed before the payment was confirmed",
    });
    return { kind: "refused", reason: "wrong_amount" };
  }
  if (outcome.value.kind === "raced") {
    const now = await PaypalApprovals.get(db, approval.id);
    return now?.state === "approved" && now.orderId && now.subscriptionId === sub.id
      ? { kind: "ordered", orderId: now.orderId }
      : { kind: "refused", reason: "ended" };
  }
  const { orderId, replaced } = outcome.value;
  // The invoice is numbered once the account's lock is let go, as a card purchase's is
  // (decision 0062): the numbering pass waits for other servers' passes, not the account.
  await numberAfterCommit(deps, orderId);
  if (replaced) {
    try {
      await paypal.cancelSubscription(replaced, "replaced by a new plan");
    } catch (error) {
      log.error(`paypal: the replaced subscription ${replaced} was not cancelled`, error);
    }
  }
  return { kind: "ordered", orderId };
}
