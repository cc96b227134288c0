// Payments: the sandbox card form, saving a card and the upgrade call (a purchase by card). Every
// figure charged is the order summary's total; what may be bought and its price come from the
// purchase service (services/purchase.ts). The trial, invoices, address and cancellations are
// subscription.ts's.
import { api } from "../../contract/index.ts";
import { apiError, cardError } from "../../domain/errors/api-errors.ts";
import { resultingProduct } from "../../domain/pricing/index.ts";
import { keyedHash, randomId } from "../auth/tokens.ts";
import type { Ctx } from "../context.ts";
import { CardTokens } from "../db/ledger.ts";
import { type Order, Orders } from "../db/orders.ts";
import { Events } from "../db/outbox.ts";
import { type PendingPurchase, PendingPurchases } from "../db/pending-purchases.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import { fail, json } from "../http/reply.ts";
import type { ActionRequired, ProviderFailure } from "../payments/provider.ts";
import { classifyCard } from "../payments/test-cards.ts";
import type { Routes } from "../routing.ts";
import type { Account } from "../services/account.ts";
import type { AccountPricing } from "../services/account-pricing.ts";
import type { Outcome } from "../services/idempotency.ts";
import { numberAfterCommit } from "../services/invoice-numbering.ts";
import { invoiceOrder } from "../services/invoices.ts";
import { applyOrder, buildOrder, commitIsolation } from "../services/orders.ts";
import { beforeCharge, keepPending, pendingAnswer, settle } from "../services/pending-purchases.ts";
import { pricePurchase } from "../services/purchase.ts";
import { accountOf } from "./helpers.ts";

/**
 * What the customer is told when the provider did not answer "succeeded". A decline or a wrong
 * card is the key's answer; an unknown outcome ("being confirmed") and a step of the bank's are
 * answered but not kept, so the same key asks the provider again, which finds the first payment
 * instead of making another (docs/decisions/0037).
 */
function providerFailure(failure: ProviderFailure | ActionRequired): Outcome {
  switch (failure.kind) {
    case "card":
      // The bank's step failed or was abandoned: nothing was charged (Stripe's code for it).
      if (failure.code === "payment_intent_authentication_failure") {
        return fail("authentication_failed");
      }
      return fail(cardError(failure.code));
    case "invalid":
      return fail("invalid_card", failure.message);
    case "unknown":
      return { ...fail("payment_pending"), store: false };
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
      return fail("payment_provider_unavailable");
  }
}

/**
 * A downgrade (domain/account/plan-change.ts): nothing is charged now; the account keeps its plan
 * and seats until the paid period ends, when the renewal applies the change at its full price.
 */
function scheduleDowngrade(
  ctx: Ctx,
  account: Account,
  pricing: AccountPricing,
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
        seats: pricing.seats,
        effectiveDate: input.startsAt,
        total: pricing.summary.total,
      },
    },
    commit: async (tx) => {
      await Subscriptions.update(tx, account.user.id, {
        pendingProductCode: productCode,
        pendingSeats: pricing.seats,
        pendingAt: input.startsAt,
        updatedAt: now,
      });
      await Events.insert(tx, {
        kind: "plan_change",
        name: "downgrade_scheduled",
        userId: account.user.id,
        payload: { from: account.sub.productCode, to: productCode, seats: pricing.seats },
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
  return fail(apiError("invalid_card", detail), { fields: [{ path, message }] });
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
    // and would charge again (issue 18, item 8). Read side by side with the account's pending
    // purchase (decision 0077), which a paid purchase reads before it charges: on PostgreSQL two
    // pooled connections answer in one round trip's time, not two one after the other (decision
    // 0086).
    const [made, pendingNow] = await Promise.all([
      Orders.byIdempotencyKey(ctx.app.db, user.id, key),
      PendingPurchases.of(ctx.app.db, user.id),
    ]);
    if (made) return { status: 200, body: orderAnswer(made) };
    // Read under the account's lock for a plan; a one-off export reads it here.
    const account = locked ?? (await accountOf(ctx, user));
    const priced = pricePurchase(ctx.app.catalog, account, body, ctx.app.config.seller.country);
    if (!priced.ok) return fail(priced.error);
    const { code, pricing } = priced;
    const { summary } = pricing;
    // A plan change of a PayPal subscriber (PayPal's API) is a new PayPal subscription that
    // replaces the old one (services/paypal-subscriptions.ts): a card charge here would leave
    // PayPal billing the old plan. (A one-off export is no plan change.)
    if (
      ctx.app.paypal &&
      pricing.kind !== "one_off" &&
      account.sub.paymentProcessor === "paypal" &&
      account.orderState === "automatic" &&
      user.paypalSubscriptionId
    )
      return fail("paypal_change_not_supported");
    if (pricing.change === "downgrade" && pricing.startsAt !== null) {
      return scheduleDowngrade(ctx, account, pricing, {
        code,
        addOns: body.addOns ?? [],
        startsAt: pricing.startsAt,
      });
    }
    if (summary.total > 0 && !user.paymentCustomer) return fail("no_payment_method");
    let chargeRef: string | null = null;
    /** This purchase, kept as pending when an earlier ask of it had its answer lost. */
    let pending: PendingPurchase | null = null;
    if (summary.total > 0 && user.paymentCustomer) {
      // While another purchase of the account is pending (its answer lost), this one waits for
      // it, whatever its key: it could be the same purchase asked again (decision 0077).
      const before = await beforeCharge(ctx, key, pendingNow);
      if (before.wait) return pendingAnswer(ctx);
      pending = before.own;
      // The order key names this purchase at the provider (its metadata and idempotency
      // key): a retry with the same Idempotency-Key finds the payment the first one made.
      const orderKey = `order:${user.id}:${key}`;
      const charged = await ctx.app.payments.charge({
        customerId: user.paymentCustomer,
        paymentMethodId: user.paymentMethod,
        amount: summary.total,
        description: `${code} × ${pricing.seats}`,
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
      pricing,
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
}
