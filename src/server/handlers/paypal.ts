// PayPal. With PAYPAL_* set, through PayPal's Subscriptions API (paypalApi below). Without them, in
// a local run's sandbox, the approval happens on a local page that stands in for PayPal's: the
// subscription call prices the order and answers with that page's address; approving it there
// writes the order (once) and sends the customer back to the return address (paypal-approval.ts).
import type { z } from "zod";
import { api } from "../../contract/index.ts";
import { safeRedirectPath } from "../../domain/account/redirects.ts";
import type { PlanEntry } from "../../domain/catalog/catalog-schema.ts";
import { paypalValue } from "../../domain/paypal/terms.ts";
import { randomId } from "../auth/tokens.ts";
import type { Ctx } from "../context.ts";
import { type PaypalApproval, PaypalApprovals } from "../db/paypal-approvals.ts";
import type { User } from "../db/users.ts";
import { fail } from "../http/reply.ts";
import { PaypalApiError, type PaypalClient } from "../payments/paypal-client.ts";
import type { Routes } from "../routing.ts";
import { loadAccount } from "../services/account.ts";
import type { Outcome } from "../services/idempotency.ts";
import {
  confirmApproval,
  PAYPAL_APPROVAL_PATH,
  planIdFor,
  termsOf,
} from "../services/paypal-subscriptions.ts";
import { type PricedPurchase, pricePurchase } from "../services/purchase.ts";

/** Spec 3.7's PayPal hand-off record. */
function handOff(plan: PlanEntry | undefined, code: string, total: number, tier: string) {
  return {
    totalAmount: total,
    productCode: code,
    productName: plan?.name ?? code,
    tier,
    hasPaypalPayment: true,
    isCCRequiredTrial: false,
    planIsTrial: plan?.isTrial ?? false,
  };
}

type PaypalBody = z.output<typeof api.paypalSubscription.body>;

/**
 * paypalsubscription with PayPal's Subscriptions API. Without subscriptionId: prices the
 * purchase and prepares the subscription the buttons create (our order key as custom_id, the
 * PayPal plan, the quantity, the first cycle's price). With it: fetches the subscription from
 * PayPal and writes the order only when it is what was prepared (services/paypal-subscriptions.ts).
 */
/**
 * The approval a subscription request stores before the customer approves it: at PayPal
 * (`paypal`: what PayPal was asked for) or on the sandbox's stand-in page (`paypal` null).
 */
function createdApproval(
  id: string,
  user: User,
  { code, pricing }: Pick<PricedPurchase, "code" | "pricing">,
  body: { addOns?: string[] | undefined },
  returnUrl: string,
  createdAt: number,
  paypal: PaypalApproval["paypal"],
): PaypalApproval {
  return {
    id,
    userId: user.id,
    productCode: code,
    seats: pricing.seats,
    addOns: body.addOns ?? [],
    coupon: pricing.coupon,
    total: pricing.summary.total,
    returnUrl,
    state: "created",
    orderId: null,
    createdAt,
    paypal,
    subscriptionId: null,
  };
}

async function paypalApi(
  ctx: Ctx,
  paypal: PaypalClient,
  user: User,
  body: PaypalBody,
): Promise<Outcome> {
  const deps = { ...ctx.app, paypal };
  const returnUrl = safeRedirectPath(body.href, ctx.app.config.publicBaseUrl);
  if (returnUrl === null) return fail("invalid_return_url");
  if (body.subscriptionId !== undefined) {
    // The order key is the subscription's custom_id; the approval is found by it once PayPal
    // answers, and must be this user's.
    let sub: { custom_id?: string } | null = null;
    try {
      sub = await paypal.getSubscription(body.subscriptionId);
    } catch (error) {
      if (error instanceof PaypalApiError && error.status === 404)
        return fail("paypal_subscription_mismatch");
      ctx.app.log.warn(`paypal: subscription ${body.subscriptionId} not fetched: ${String(error)}`);
      return fail("paypal_provider_error");
    }
    const result = await confirmApproval(deps, sub.custom_id ?? "", body.subscriptionId, user.id);
    switch (result.kind) {
      case "ordered": {
        const approval = await PaypalApprovals.get(ctx.app.db, sub.custom_id ?? "");
        const plan = ctx.app.catalog.plans.find((p) => p.code === approval?.productCode);
        const account = await loadAccount(ctx.app.db, ctx.app.catalog, user, ctx.now());
        return {
          status: 200,
          body: {
            success: true,
            approvalId: approval?.id ?? "",
            approvalUrl: returnUrl,
            paypal: handOff(plan, approval?.productCode ?? "", approval?.total ?? 0, account.tier),
            orderId: result.orderId,
          },
        };
      }
      case "pending":
        return fail("paypal_not_completed");
      case "busy":
        // Not now: answered, not kept as the key's answer (a retry does the work).
        return { ...fail("account_busy"), store: false };
      case "unavailable":
        ctx.app.log.warn(`paypal: confirm of ${body.subscriptionId} failed: ${result.message}`);
        return fail("paypal_provider_error");
      case "not_found":
        return fail("paypal_subscription_mismatch");
      case "refused":
        return fail("paypal_subscription_mismatch");
    }
  }
  const account = await loadAccount(ctx.app.db, ctx.app.catalog, user, ctx.now());
  const priced = pricePurchase(ctx.app.catalog, account, body, ctx.app.config.seller.country);
  if (!priced.ok) return fail(priced.error);
  const { code, pricing } = priced;
  if (pricing.change === "downgrade") return fail("downgrade_needs_no_payment");
  const plan = ctx.app.catalog.plans.find((p) => p.code === code);
  if (!plan) return fail("paypal_subscriptions_only");
  // Seats or essentials added to a running period renew with it, which a new PayPal subscription
  // (billed from today) cannot do: refused, with the reason (decision 0041).
  if (pricing.change === "addition") return fail("paypal_change_not_supported");
  const now = ctx.now();
  const terms = termsOf(
    ctx.app.catalog,
    account,
    pricing,
    {
      plan,
      addOns: body.addOns ?? [],
      coupon: pricing.coupon,
      sellerCountry: ctx.app.config.seller.country,
    },
    now,
  );
  if (terms === null) return fail("paypal_subscriptions_only");
  let planId: string;
  try {
    planId = await planIdFor(deps, terms);
  } catch (error) {
    ctx.app.log.warn(`paypal: no plan for ${terms.planKey}: ${String(error)}`);
    return fail("paypal_provider_error");
  }
  const id = randomId("PAYID", 12);
  return {
    status: 200,
    body: {
      success: true,
      approvalId: id,
      approvalUrl: returnUrl,
      paypal: handOff(plan, code, pricing.summary.total, account.tier),
      subscription: {
        planId,
        quantity: terms.quantity,
        firstCycleUnitPrice:
          terms.firstUnitCents === terms.unitCents ? null : paypalValue(terms.firstUnitCents),
      },
    },
    commit: (tx) =>
      PaypalApprovals.insert(
        tx,
        createdApproval(id, user, { code, pricing }, body, returnUrl, now, {
          planId,
          quantity: terms.quantity,
          firstUnitCents: terms.firstUnitCents,
          unitCents: terms.unitCents,
        }),
      ),
  };
}

export function paypalRoutes(routes: Routes): void {
  routes.api(api.paypalSubscription, async (ctx, { user, body }) => {
    if (ctx.app.paypal) return paypalApi(ctx, ctx.app.paypal, user, body);
    // The sandbox's approval stand-in is under /dev/: a local request's only (local-run.ts).
    if (ctx.app.config.payments !== "sandbox" || !ctx.isLocalRequest)
      return fail("paypal_unavailable");
    if (body.subscriptionId !== undefined) return fail("paypal_unavailable");
    // Checked before anything is priced or written: only a page of this site is stored.
    const returnUrl = safeRedirectPath(body.href, ctx.app.config.publicBaseUrl);
    if (returnUrl === null) return fail("invalid_return_url");
    const account = await loadAccount(ctx.app.db, ctx.app.catalog, user, ctx.now());
    const priced = pricePurchase(ctx.app.catalog, account, body, ctx.app.config.seller.country);
    if (!priced.ok) return fail(priced.error);
    const { code, pricing } = priced;
    // A downgrade charges nothing now (payments.ts schedules it through the upgrade call).
    if (pricing.change === "downgrade") return fail("downgrade_needs_no_payment");
    const plan = ctx.app.catalog.plans.find((p) => p.code === code);
    const id = randomId("PAYID", 12);
    const answer = {
      success: true as const,
      approvalId: id,
      approvalUrl: `${PAYPAL_APPROVAL_PATH}?${new URLSearchParams({ id })}`,
      paypal: handOff(plan, code, pricing.summary.total, account.tier),
    };
    return {
      status: 200,
      body: answer,
      commit: (tx) =>
        PaypalApprovals.insert(
          tx,
          createdApproval(id, user, { code, pricing }, body, returnUrl, ctx.now(), null),
        ),
    };
  });
}
