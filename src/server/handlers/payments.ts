// Payments: the sandbox card form, saving a card, upgrades, trials, invoices, address, essentials
// and subscription cancellation. Every figure charged is the order summary's total.
import { api } from "../../contract/index.ts";
import type { Invoice } from "../../contract/payment.ts";
import { isBlockedEmail } from "../../domain/account/email-rules.ts";
import { tierForVertical, trialProductForTier } from "../../domain/account/tier.ts";
import { trialIdentity, trialRefusal } from "../../domain/account/trials.ts";
import { US_STATES } from "../../domain/checkout/regions.ts";
import { usAddressProblem } from "../../domain/checkout/zip-states.ts";
import { apiError, cardError } from "../../domain/errors/api-errors.ts";
import { resultingProduct } from "../../domain/pricing/index.ts";
import { renewalWords } from "../../domain/renewals/renewal-words.ts";
import { keyedHash, randomId } from "../auth/tokens.ts";
import type { Ctx } from "../context.ts";
import { Invoices } from "../db/invoices.ts";
import { CardTokens } from "../db/ledger.ts";
import { type Order, Orders } from "../db/orders.ts";
import { Events } from "../db/outbox.ts";
import { type PendingPurchase, PendingPurchases } from "../db/pending-purchases.ts";
import { Refunds } from "../db/refunds.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { TrialClaims } from "../db/trial-claims.ts";
import type { User } from "../db/users.ts";
import { Users } from "../db/users.ts";
import { fail, fromApiError, HttpError, json } from "../http/reply.ts";
import type { ActionRequired, ProviderFailure } from "../payments/provider.ts";
import { classifyCard } from "../payments/test-cards.ts";
import { errorOutcome, type Routes } from "../routing.ts";
import { type Account, educationEligibleFor } from "../services/account.ts";
import { sendEmailCode } from "../services/emails.ts";
import type { Outcome } from "../services/idempotency.ts";
import { numberAfterCommit, numberWaiting } from "../services/invoice-numbering.ts";
import { invoiceOrder } from "../services/invoices.ts";
import { isUsState } from "../services/location.ts";
import {
  applyOrder,
  buildOrder,
  commitIsolation,
  startTrial,
  trialDays,
} from "../services/orders.ts";
import { beforeCharge, keepPending, pendingAnswer, settle } from "../services/pending-purchases.ts";
import { type Quote, quoteFor } from "../services/quotes.ts";
import { essentialsCancelledMail } from "../services/renewal-emails.ts";
import { DEFAULT_TRIAL_DAYS, nextRenewalOf } from "../services/views.ts";
import { accountOf } from "./helpers.ts";

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
    sellerCountry: ctx.app.config.seller.country,
  });
  if (!priced.ok) throw new HttpError(priced.error);
  if (body.expectedTotal !== undefined && body.expectedTotal !== priced.quote.summary.total) {
    throw new HttpError(apiError("price_changed"));
  }
  return { code, quote: priced.quote };
}

function invoiceOf(order: Order, refunded: number, numbers: Map<string, string>): Invoice {
  return {
    ...(refunded > 0 ? { amountRefunded: refunded } : {}),
    invoiceId: order.invoiceId,
    // The invoice's gapless number (issue 23); an order from before invoices were numbered
    // keeps the reference it was given.
    invoiceNumber:
      numbers.get(order.id) ??
      (order.invoiceId ? order.invoiceId.replace(/^in_/, "INV-").toUpperCase() : null),
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

async function invoices(ctx: Ctx, user: User, page: number, processor: "cc" | "paypal") {
  // Numbered on read: an invoice still waiting (its pass failed) gets its number before it is
  // listed, so the list never shows an order without its invoice's number (decision 0062).
  await numberWaiting(ctx.app, { userId: user.id });
  const orders = await Orders.invoicesFor(ctx.app.db, user.id, processor, page, INVOICE_PAGE_SIZE);
  const [refunded, numbers] = await Promise.all([
    Refunds.totalsFor(
      ctx.app.db,
      orders.map((o) => o.id),
    ),
    Invoices.currentNumbersOf(ctx.app.db, user.id),
  ]);
  return json(orders.map((o) => invoiceOf(o, refunded.get(o.id) ?? 0, numbers)));
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

const NUMBER_PROBLEM = "This card number is not valid: check the digits.";
const EXPIRED_PROBLEM = "This card has expired: check the date, or use another card.";

/** A card refused for what was typed: the form says so beside the field, not "declined". */
function invalidCard(detail: string, path: string, message: string) {
  const error = apiError("invalid_card", detail);
  return fromApiError({ ...error, body: { ...error.body, fields: [{ path, message }] } });
}

export function paymentRoutes(routes: Routes): void {
  routes.api(api.sandboxToken, async (ctx, { body }) => {
    // Test cards are a local request's only (local-run.ts), never a proxied one's.
    if (ctx.app.config.payments !== "sandbox" || !ctx.isLocalRequest) return fail("not_found");
    const card = classifyCard(body.number);
    if (!card) return invalidCard("the card number is not valid", "number", NUMBER_PROBLEM);
    const now = new Date(ctx.now());
    const expired =
      body.expYear < now.getUTCFullYear() ||
      (body.expYear === now.getUTCFullYear() && body.expMonth < now.getUTCMonth() + 1);
    if (expired) return invalidCard("the expiry date is in the past", "expYear", EXPIRED_PROBLEM);
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

  routes.api(api.paymentToken, async (ctx, { user, body, key }) => {
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
  });

  routes.api(api.upgrade, async (ctx, { user, body, key, account: locked }) => {
    // A key the key table has forgotten (after a day) but an order holds: its answer again,
    // without asking the provider, which may have forgotten the key too (Stripe, 24 hours)
    // and would charge again (issue 18, item 8).
    const made = await Orders.byIdempotencyKey(ctx.app.db, user.id, key);
    if (made) return { status: 200, body: orderAnswer(made) };
    // Read under the account's lock for a plan; a one-off export reads it here.
    const account = locked ?? (await accountOf(ctx, user));
    const { code, quote } = pricePurchase(ctx, account, body);
    const { summary } = quote;
    // A plan change of a PayPal subscriber (PayPal's API) is a new PayPal subscription that
    // replaces the old one (services/paypal-subscriptions.ts): a card charge here would leave
    // PayPal billing the old plan. (A one-off export is no plan change.)
    if (
      ctx.app.paypal &&
      quote.kind !== "one_off" &&
      account.sub.paymentProcessor === "paypal" &&
      account.orderState === "automatic" &&
      user.paypalSubscriptionId
    )
      return errorOutcome(apiError("paypal_change_not_supported"));
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
    /** This purchase, kept as pending when an earlier ask of it had its answer lost. */
    let pending: PendingPurchase | null = null;
    if (summary.total > 0 && user.paymentCustomer) {
      // While another purchase of the account is pending (its answer lost), this one waits for
      // it, whatever its key: it could be the same purchase asked again (decision 0077).
      const before = await beforeCharge(ctx, user.id, key);
      if (before.wait) return pendingAnswer(ctx);
      pending = before.own;
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
          await keepPending(ctx, {
            userId: user.id,
            idempotencyKey: key,
            orderKey,
            customerId: user.paymentCustomer,
            amount: summary.total,
          });
          return pendingAnswer(ctx);
        }
        // The provider's answer is known now (a refusal, or the bank's step): nothing charged
        // without the customer, so this purchase is pending no more. Unreachable says nothing.
        if (pending && charged.kind !== "unavailable") await settle(ctx, pending);
        return providerFailure(charged);
      }
      chargeRef = charged.chargeId;
      // A charge pays for one order (issue 18, item 8): a key forgotten after a day and
      // replayed finds the provider's first charge, and answers with its order. A charge the
      // provider made in this call has no order yet (and orders.charge_ref is unique besides).
      const earlier = charged.new ? null : await Orders.byChargeRef(ctx.app.db, chargeRef);
      if (earlier) {
        if (pending) await settle(ctx, pending);
        return { status: 200, body: orderAnswer(earlier) };
      }
    }
    const settled = pending;
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
      commit: async (tx) => {
        // Issue 23: the invoice commits with the order; its number and its receipt come from
        // the numbering pass right after (decision 0062). Issued together with the order's
        // writes: on PostgreSQL they go out in one round trip (decision 0074).
        await Promise.all([
          applyOrder(tx, ctx.app.catalog, account, order, summary),
          invoiceOrder(tx, ctx.app, { order, summary, account }),
          // The pending purchase this was is settled with its order.
          settled ? PendingPurchases.settle(tx, settled.userId, settled.orderKey) : null,
        ]);
      },
      afterCommit: () => numberAfterCommit(ctx.app, order.id),
      // The answer names the order built above: the commit fills in nothing of it.
      bodyFinal: true,
      isolation: commitIsolation(order),
    };
  });

  routes.api(api.activateFreeTrial, async (ctx, { user, body, account: locked }) => {
    // Read under the account's lock (the table's accountLock: "always").
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
  });

  routes.api(api.invoices, (ctx, { user, params }) => invoices(ctx, user, params.page, "cc"));
  routes.api(api.paypalInvoices, (ctx, { user, params }) =>
    invoices(ctx, user, params.page, "paypal"),
  );

  routes.api(api.address, async (ctx, { user, body }) => {
    const state = body.country === "US" ? (body.state ?? null) : null;
    if (state !== null && !isUsState(state)) {
      const error = apiError("invalid_request", "state must be a US state code such as CA");
      const fields = [{ path: "state", message: "Choose a US state from the list." }];
      return fromApiError({ ...error, body: { ...error.body, fields } });
    }
    // A US address needs its state, one its ZIP code agrees with (issue 33, item 6): without it
    // the sales tax would be the "state unknown" rate, or another state's.
    const usProblem =
      body.country === "US" ? usAddressProblem(body, (code) => US_STATES[code] ?? code) : null;
    if (usProblem !== null) {
      const error = apiError("invalid_request", usProblem.field);
      const fields = [{ path: usProblem.field, message: usProblem.message }];
      return fromApiError({ ...error, body: { ...error.body, fields } });
    }
    await ctx.app.db.transaction((tx) =>
      Users.update(tx, user.id, {
        country: body.country,
        stateCode: state,
        address: { ...body, state: state ?? undefined },
      }),
    );
    return json({ success: true, countryCode: body.country, stateCode: state });
  });

  routes.api(api.deleteEssentials, async (ctx, { account }) => {
    if (account.managed || account.isMember) return fail("managed_account");
    const plan = account.plan;
    if (!plan?.essentials || !plan.essentialsDowngrade) return fail("no_essentials");
    const { sub, user } = account;
    // Like a cancelled plan (issue 33, item 8): Essentials stays for the period paid for, and the
    // renewal drops it: the plan without Essentials is scheduled for the period end, as a
    // downgrade is (decision 0012). A change already scheduled keeps its product, without
    // Essentials; one without Essentials means it was cancelled already.
    const pending =
      sub.pendingProductCode === null
        ? null
        : ctx.app.catalog.plans.find((p) => p.code === sub.pendingProductCode);
    if (pending && !pending.essentials) return fail("no_essentials");
    const renewsInto = pending?.essentialsDowngrade ?? pending?.code ?? plan.essentialsDowngrade;
    const endsAt = sub.orderEnd !== null && sub.orderEnd > ctx.now() ? sub.orderEnd : null;
    const now = ctx.now();
    await ctx.app.db.transaction(async (tx) => {
      if (endsAt === null) {
        // No paid period left to keep (a row without one): it ends now, as before.
        await Subscriptions.update(tx, user.id, { productCode: renewsInto, updatedAt: now });
      } else {
        await Subscriptions.update(tx, user.id, {
          pendingProductCode: renewsInto,
          pendingSeats: sub.pendingSeats ?? sub.seats,
          pendingAt: endsAt,
          updatedAt: now,
        });
      }
      await Events.insert(tx, {
        kind: "cancellation",
        name: "cancel_essentials",
        userId: user.id,
        payload: { from: plan.code, endsAt },
        now,
      });
      const renewal =
        endsAt === null
          ? null
          : nextRenewalOf(
              {
                ...account,
                sub: { ...sub, pendingProductCode: renewsInto, pendingSeats: sub.pendingSeats },
              },
              ctx.app.catalog,
              ctx.app.config.seller.country,
            );
      await ctx.app.mailer.queue(
        tx,
        essentialsCancelledMail(user, {
          planName: ctx.app.catalog.plans.find((p) => p.code === renewsInto)?.name ?? plan.name,
          endsAt,
          renewal: renewal && renewalWords(renewal),
        }),
      );
    });
    ctx.app.mailer.kick();
    return json({ success: true, productCode: renewsInto, endsAt });
  });

  routes.api(api.cancelSubscription, async (ctx, { account }) => {
    if (account.isMember) return fail("managed_account");
    if (account.orderState !== "automatic") return fail("no_subscription");
    // A one-time product (Flex) is paid once and renews never: there is nothing to cancel.
    if (account.plan && !account.plan.recurring) return fail("no_subscription");
    // Paid through PayPal's API: cancelled at PayPal first, so PayPal bills no more; the paid
    // period is kept either way. If PayPal cannot be reached nothing changes here.
    const paypalId = account.user.paypalSubscriptionId;
    if (ctx.app.paypal && account.sub.paymentProcessor === "paypal" && paypalId) {
      try {
        await ctx.app.paypal.cancelSubscription(paypalId, "cancelled by the customer");
      } catch (error) {
        ctx.app.log.warn(`paypal: cancel of ${paypalId} failed: ${String(error)}`);
        return fail("paypal_provider_error");
      }
    }
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
}
