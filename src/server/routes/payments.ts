// Payments: the sandbox card form, saving a card, upgrades, trials, invoices, address, essentials
// and subscription cancellation. Every figure charged is the order summary's total.
import { api } from "../../api/contract/index.ts";
import type { Invoice } from "../../api/contract/payment.ts";
import { isBlockedEmail } from "../../domain/account/email-rules.ts";
import { tierForVertical, trialProductForTier } from "../../domain/account/tier.ts";
import { trialIdentity, trialRefusal } from "../../domain/account/trials.ts";
import { apiError, cardError } from "../../domain/errors/api-errors.ts";
import type { Routes } from "../app.ts";
import { keyedHash, randomId } from "../auth/tokens.ts";
import type { Ctx } from "../context.ts";
import { CardTokens } from "../db/ledger.ts";
import { type Order, Orders } from "../db/orders.ts";
import { Events } from "../db/outbox.ts";
import { Refunds } from "../db/refunds.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { TrialClaims } from "../db/trial-claims.ts";
import type { User } from "../db/users.ts";
import { Users } from "../db/users.ts";
import { fail, HttpError, json } from "../http/reply.ts";
import type { ActionRequired, ProviderFailure } from "../payments/provider.ts";
import { classifyCard } from "../payments/test-cards.ts";
import { type Account, educationEligibleFor } from "../services/account.ts";
import { withOwnAccountLock } from "../services/account-lock.ts";
import { sendEmailCode } from "../services/emails.ts";
import type { Outcome } from "../services/idempotency.ts";
import { isUsState } from "../services/location.ts";
import {
  applyOrder,
  buildOrder,
  resultingProduct,
  startTrial,
  trialDays,
} from "../services/orders.ts";
import { type Quote, quoteFor } from "../services/quotes.ts";
import { DEFAULT_TRIAL_DAYS } from "../services/views.ts";
import { accountOf, errorOutcome, idempotent } from "./helpers.ts";

const INVOICE_PAGE_SIZE = 50;

/**
 * What the customer is told when the provider did not answer "succeeded". A decline or a wrong
 * card is the key's answer; an unknown outcome ("being confirmed") and a step of the bank's are
 * answered but not kept, so the same key asks the provider again, which finds the first payment
 * instead of making another (docs/decisions/0037).
 */
export function providerFailure(failure: ProviderFailure | ActionRequired): Outcome {
  switch (failure.kind) {
    case "card":
      // The bank's step failed or was abandoned: nothing was charged (Stripe's code for it).
      if (failure.code === "payment_intent_authentication_failure") {
        return errorOutcome(apiError("authentication_failed"));
      }
      return errorOutcome(cardError(failure.code));
    case "invalid":
      return errorOutcome(apiError("invalid_card", failure.message));
    case "unknown":
      return { ...errorOutcome(apiError("payment_pending")), store: false };
    case "action": {
      const { status, body } = apiError("authentication_required");
      return {
        status,
        body: {
          ...body,
          action: {
            paymentId: failure.intentId,
            clientSecret: failure.clientSecret,
            ...(failure.url ? { url: failure.url } : {}),
          },
        },
        store: false,
      };
    }
    case "unavailable":
      return errorOutcome(apiError("payment_provider_unavailable"));
  }
}

/** Who may buy on the web at all (spec sections 2.5 and 6). */
export function assertCanPurchase(
  account: Account,
  catalog: { blockedEmailDomains: string[] },
): void {
  if (
    account.user.domainStatus === "blocked" ||
    isBlockedEmail(account.user.email, catalog.blockedEmailDomains)
  ) {
    throw new HttpError(apiError("blocked_domain"));
  }
  if (account.upgradesDisabled) throw new HttpError(apiError("upgrades_disabled"));
  if (account.managed) throw new HttpError(apiError("managed_account"));
}

export type PurchaseRequest = {
  product?: { code?: string | undefined } | null | undefined;
  seats?: number | undefined;
  addOns?: string[] | undefined;
  coupon?: string | undefined;
  expectedTotal?: number | undefined;
};

/** The product code of an upgrade call, or the spec's 'Upgrade call without any product'. */
export function productCodeOf(body: PurchaseRequest): string {
  const code = body.product?.code?.trim();
  if (!code) throw new HttpError(apiError("upgrade_without_product"));
  return code;
}

/** Whether a purchase changes the account's plan (anything but a one-off export). */
export function changesPlan(ctx: Ctx, body: PurchaseRequest): boolean {
  const code = body.product?.code?.trim();
  return code !== undefined && ctx.app.catalog.plans.some((p) => p.code === code);
}

/** Prices a purchase for the account, refusing what cannot be bought. */
export function pricePurchase(ctx: Ctx, account: Account, body: PurchaseRequest) {
  const { catalog } = ctx.app;
  const code = productCodeOf(body);
  assertCanPurchase(account, catalog);
  const plan = catalog.plans.find((p) => p.code === code);
  if (plan && (plan.isTrial || plan.price === 0 || plan.legacy)) {
    throw new HttpError(apiError("product_not_purchasable", code));
  }
  // Education plans (teacher, schools, spec 6) are for a verified education address; the app
  // sends anyone else to the invalid-email page first, so this refuses a crafted call.
  if (!educationEligibleFor(catalog, account, code)) {
    throw new HttpError(apiError("education_email_required"));
  }
  const priced = quoteFor(catalog, account, {
    targetProduct: code,
    seats: body.seats,
    addOns: body.addOns,
    coupon: body.coupon,
  });
  if (!priced.ok) throw new HttpError(priced.error);
  if (body.expectedTotal !== undefined && body.expectedTotal !== priced.quote.summary.total) {
    throw new HttpError(apiError("price_changed"));
  }
  return { code, quote: priced.quote };
}

function invoiceOf(order: Order, refunded: number): Invoice {
  return {
    ...(refunded > 0 ? { amountRefunded: refunded } : {}),
    invoiceId: order.invoiceId,
    invoiceNumber: order.invoiceId ? order.invoiceId.replace(/^in_/, "INV-").toUpperCase() : null,
    orderId: order.id,
    productCode: order.productCode,
    productName: order.productName,
    orderDuration: order.termMonths,
    orderEndDate: order.periodEnd ?? order.periodStart,
    created: order.createdAt,
    price: order.listPrice,
    amountPaid: order.total,
    salesTax: order.salesTax,
    seats: order.seats,
    paymentProcessor: order.processor ?? "cc",
  };
}

async function invoices(ctx: Ctx, processor: "cc" | "paypal") {
  const user = await ctx.requireUser();
  const page = Number(ctx.params.page);
  if (!Number.isSafeInteger(page) || page < 1 || page > 10_000) {
    return fail("invalid_request", "the page must be a whole number of at least 1");
  }
  const orders = await Orders.invoicesFor(ctx.app.db, user.id, processor, page, INVOICE_PAGE_SIZE);
  const refunded = await Refunds.totalsFor(
    ctx.app.db,
    orders.map((o) => o.id),
  );
  return json(orders.map((o) => invoiceOf(o, refunded.get(o.id) ?? 0)));
}

/**
 * A downgrade (domain/account/plan-change.ts): nothing is charged now; the account keeps its plan
 * and seats until the paid period ends, when the renewal applies the change at its full price.
 */
function scheduleDowngrade(
  ctx: Ctx,
  account: Account,
  quote: Quote,
  input: { code: string; addOns: readonly string[]; startsAt: number },
): Outcome {
  const { catalog } = ctx.app;
  const plan = catalog.plans.find((p) => p.code === input.code);
  const productCode = plan ? resultingProduct(catalog, plan, input.addOns) : input.code;
  const now = ctx.now();
  return {
    status: 200,
    body: {
      success: true,
      orderId: account.sub.orderId ?? "",
      invoiceId: "",
      productCode: account.sub.productCode,
      seats: account.sub.seats,
      total: 0,
      orderEndDate: input.startsAt,
      paymentProcessor: account.sub.paymentProcessor === "paypal" ? "paypal" : "cc",
      scheduledChange: {
        productCode,
        seats: quote.seats,
        effectiveDate: input.startsAt,
        total: quote.summary.total,
      },
    },
    commit: async (tx) => {
      await Subscriptions.update(tx, account.user.id, {
        pendingProductCode: productCode,
        pendingSeats: quote.seats,
        pendingAt: input.startsAt,
        updatedAt: now,
      });
      await Events.insert(tx, {
        kind: "plan_change",
        name: "downgrade_scheduled",
        userId: account.user.id,
        payload: { from: account.sub.productCode, to: productCode, seats: quote.seats },
        now,
      });
    },
  };
}

/** The upgrade call's answer for a card order. */
function orderAnswer(order: Order) {
  return {
    success: true,
    orderId: order.id,
    invoiceId: order.invoiceId ?? "",
    productCode: order.productCode,
    seats: order.seats,
    total: order.total,
    orderEndDate: order.kind === "plan" ? order.periodEnd : null,
    paymentProcessor: "cc" as const,
    scheduledChange: null,
  };
}

export function paymentRoutes(routes: Routes): void {
  routes.api(api.sandboxToken, async (ctx) => {
    // Test cards are a local request's only (local-run.ts), never a proxied one's.
    if (ctx.app.config.payments !== "sandbox" || !ctx.isLocalRequest) return fail("not_found");
    const body = await ctx.body(api.sandboxToken.body);
    const card = classifyCard(body.number);
    if (!card) return fail("invalid_card", "the card number is not valid");
    const now = new Date(ctx.now());
    const expired =
      body.expYear < now.getUTCFullYear() ||
      (body.expYear === now.getUTCFullYear() && body.expMonth < now.getUTCMonth() + 1);
    if (expired) return fail("invalid_card", "the expiry date is in the past");
    const id = randomId("tok_sandbox", 16);
    const last4 = body.number.slice(-4);
    await ctx.app.db.transaction((tx) =>
      CardTokens.insert(tx, {
        id,
        numberHash: keyedHash(ctx.app.secret, `card:${body.number}`),
        brand: card.brand,
        last4,
        expMonth: body.expMonth,
        expYear: body.expYear,
        attachError: card.attachError,
        chargeError: card.chargeError,
        createdAt: ctx.now(),
      }),
    );
    return json({
      id,
      card: { brand: card.brand, last4, expMonth: body.expMonth, expYear: body.expYear },
    });
  });

  routes.api(
    api.paymentToken,
    idempotent(api.paymentToken, async (ctx, user: User, body, key) => {
      const attached = await ctx.app.payments.attachCard({
        customerId: user.paymentCustomer,
        userId: user.id,
        email: user.email,
        token: body.token,
        idempotencyKey: `card:${user.id}:${key}`,
      });
      if (!attached.ok) return providerFailure(attached);
      return {
        status: 200,
        body: {
          success: true,
          paymentMethod: { processor: "cc", brand: attached.brand, last4: attached.last4 },
        },
        commit: (tx) =>
          Users.update(tx, user.id, {
            paymentCustomer: attached.customerId,
            paymentMethod: attached.paymentMethodId,
            cardBrand: attached.brand,
            cardLast4: attached.last4,
          }),
      };
    }),
  );

  routes.api(
    api.upgrade,
    idempotent(
      api.upgrade,
      async (ctx, user, body, key, locked) => {
        // A key the key table has forgotten (after a day) but an order holds: its answer again,
        // without asking the provider, which may have forgotten the key too (Stripe, 24 hours)
        // and would charge again (issue 18, item 8).
        const made = await Orders.byIdempotencyKey(ctx.app.db, user.id, key);
        if (made) return { status: 200, body: orderAnswer(made) };
        // Read under the account's lock for a plan; a one-off export reads it here.
        const account = locked ?? (await accountOf(ctx, user));
        const { code, quote } = pricePurchase(ctx, account, body);
        const { summary } = quote;
        if (quote.change === "downgrade" && quote.startsAt !== null) {
          return scheduleDowngrade(ctx, account, quote, {
            code,
            addOns: body.addOns ?? [],
            startsAt: quote.startsAt,
          });
        }
        if (summary.total > 0 && !user.paymentCustomer)
          return errorOutcome(apiError("no_payment_method"));
        let chargeRef: string | null = null;
        if (summary.total > 0 && user.paymentCustomer) {
          // The order key names this purchase at the provider (its metadata and idempotency
          // key): a retry with the same Idempotency-Key finds the payment the first one made.
          const orderKey = `order:${user.id}:${key}`;
          const charged = await ctx.app.payments.charge({
            customerId: user.paymentCustomer,
            paymentMethodId: user.paymentMethod,
            amount: summary.total,
            description: `${code} × ${quote.seats}`,
            idempotencyKey: orderKey,
            orderKey,
            offSession: false,
            metadata: { userId: String(user.id), productCode: code },
          });
          if (!charged.ok) {
            if (charged.kind === "unknown") {
              ctx.app.log.warn(
                `payments: order ${orderKey} is pending (${charged.message}): answered payment_pending`,
              );
            }
            return providerFailure(charged);
          }
          chargeRef = charged.chargeId;
          // A charge pays for one order (issue 18, item 8): a key forgotten after a day and
          // replayed finds the provider's first charge, and answers with its order.
          const earlier = await Orders.byChargeRef(ctx.app.db, chargeRef);
          if (earlier) return { status: 200, body: orderAnswer(earlier) };
        }
        const now = ctx.now();
        const order = buildOrder(
          ctx.app.catalog,
          account,
          quote,
          { code, addOns: body.addOns ?? [] },
          { processor: "cc", chargeRef, idempotencyKey: key },
          now,
        );
        return {
          status: 200,
          body: orderAnswer(order),
          commit: (tx) => applyOrder(tx, ctx.app.catalog, account, order, summary),
        };
      },
      { lockAccount: (ctx, body) => changesPlan(ctx, body) },
    ),
  );

  routes.api(
    api.activateFreeTrial,
    idempotent(
      api.activateFreeTrial,
      async (ctx, user, body, _key, locked) => {
        const account = locked ?? (await accountOf(ctx, user));
        assertCanPurchase(account, ctx.app.catalog);
        const tier = tierForVertical(body.vertical);
        const code = trialProductForTier(tier);
        const plan = code ? ctx.app.catalog.plans.find((p) => p.code === code) : undefined;
        if (!plan) return errorOutcome(apiError("trial_not_available"));
        // The education trial is for a verified school address (spec 2.5 and 6); the app sends
        // anyone else to the invalid-email page first, so this refuses a crafted call.
        if (!educationEligibleFor(ctx.app.catalog, account, plan.code)) {
          return errorOutcome(apiError("education_email_required"));
        }
        // One trial per person (domain/account/trials.ts): counted against the normalised
        // address, so plus tags, Gmail dots and googlemail.com get no second trial, and only
        // for an address the person has verified.
        const identity = trialIdentity(user.email);
        const refusal = trialRefusal({
          hadTrial:
            user.previousTrialOwner ||
            identity === null ||
            (await TrialClaims.taken(ctx.app.db, identity)),
          orderState: account.orderState,
          isTrial: account.isTrial,
          isExpiredTrial: account.isExpiredTrial,
          managed: account.managed,
          emailVerified: user.emailVerified,
        });
        if (refusal) return errorOutcome(apiError(refusal));
        const ccRequired =
          account.sub.ccRequiredForTrial || user.properties.ccRequiredForTrial === "true";
        if (ccRequired && !user.paymentCustomer && !user.paypalSubscriptionId) {
          return errorOutcome(apiError("card_required_for_trial"));
        }
        const days = trialDays(plan, DEFAULT_TRIAL_DAYS);
        const now = ctx.now();
        // The trial's order and account change are written with the stored answer; the answer
        // needs the order id and the workspace name, so the commit fills them in.
        const answer = {
          success: true as const,
          productCode: plan.code,
          orderId: "",
          orderEndDate: now + days * 86_400_000,
          remainingTrialDays: days,
          instanceName: null as string | null,
        };
        return {
          status: 200,
          body: answer,
          commit: async (tx) => {
            if (identity !== null) {
              await TrialClaims.claim(tx, {
                identity,
                userId: user.id,
                productCode: plan.code,
                now,
              });
            }
            const result = await startTrial(tx, account, plan, {
              days,
              instanceName: body.instanceName ?? null,
              now,
            });
            answer.orderId = result.orderId;
            answer.instanceName = result.instanceName;
            if (plan.isTrial && !user.emailVerified) {
              await sendEmailCode(tx, ctx.app, user, now);
            }
          },
        };
      },
      { lockAccount: () => true },
    ),
  );

  routes.api(api.invoices, (ctx) => invoices(ctx, "cc"));
  routes.api(api.paypalInvoices, (ctx) => invoices(ctx, "paypal"));

  routes.api(api.address, async (ctx) => {
    const user = await ctx.requireUser();
    const body = await ctx.body(api.address.body);
    const state = body.country === "US" ? (body.state ?? null) : null;
    if (state !== null && !isUsState(state))
      return fail("invalid_request", "state must be a US state code such as CA");
    await ctx.app.db.transaction((tx) =>
      Users.update(tx, user.id, {
        country: body.country,
        stateCode: state,
        address: { ...body, state: state ?? undefined },
      }),
    );
    return json({ success: true, countryCode: body.country, stateCode: state });
  });

  routes.api(api.deleteEssentials, async (ctx) => {
    return withOwnAccountLock(ctx, async ({ account }) => {
      if (account.managed || account.isMember) return fail("managed_account");
      const plan = account.plan;
      if (!plan?.essentials || !plan.essentialsDowngrade) return fail("no_essentials");
      const downgrade = plan.essentialsDowngrade;
      const now = ctx.now();
      await ctx.app.db.transaction(async (tx) => {
        await Subscriptions.update(tx, account.user.id, { productCode: downgrade, updatedAt: now });
        await Events.insert(tx, {
          kind: "cancellation",
          name: "cancel_essentials",
          userId: account.user.id,
          payload: { from: plan.code },
          now,
        });
      });
      return json({ success: true, productCode: downgrade });
    });
  });

  routes.api(api.cancelSubscription, async (ctx) => {
    return withOwnAccountLock(ctx, async ({ account }) => {
      if (account.isMember) return fail("managed_account");
      if (account.orderState !== "automatic") return fail("no_subscription");
      const now = ctx.now();
      await ctx.app.db.transaction(async (tx) => {
        await Subscriptions.update(tx, account.user.id, {
          orderState: "cancelled",
          prevOrderState: "automatic",
          updatedAt: now,
        });
        await Events.insert(tx, {
          kind: "cancellation",
          name: "cancel_subscription",
          userId: account.user.id,
          payload: { productCode: account.productCode },
          now,
        });
      });
      return json({ success: true, orderState: "cancelled", orderEndDate: account.sub.orderEnd });
    });
  });
}
