// The account's subscription outside a purchase: the free trial, the invoice lists, the billing
// address, cancelling Essentials and cancelling the subscription.
import { api } from "../../contract/index.ts";
import type { Invoice } from "../../contract/payment.ts";
import { tierForVertical, trialProductForTier } from "../../domain/account/tier.ts";
import { trialIdentity, trialRefusal } from "../../domain/account/trials.ts";
import { US_STATES } from "../../domain/checkout/regions.ts";
import { usAddressProblem } from "../../domain/checkout/zip-states.ts";
import { apiError } from "../../domain/errors/api-errors.ts";
import { renewalWords } from "../../domain/renewals/renewal-words.ts";
import type { Ctx } from "../context.ts";
import { Invoices } from "../db/invoices.ts";
import { type Order, Orders } from "../db/orders.ts";
import { Events } from "../db/outbox.ts";
import { Refunds } from "../db/refunds.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { TrialClaims } from "../db/trial-claims.ts";
import type { User } from "../db/users.ts";
import { Users } from "../db/users.ts";
import { fail, json } from "../http/reply.ts";
import type { Routes } from "../routing.ts";
import { educationEligibleFor } from "../services/account.ts";
import { startTrial, trialDays } from "../services/account-moves.ts";
import { sendEmailCode } from "../services/emails.ts";
import { recordAfterSale } from "../services/experiments.ts";
import { numberWaiting } from "../services/invoice-numbering.ts";
import { isUsState } from "../services/location.ts";
import { purchaseRefusal } from "../services/purchase.ts";
import { essentialsCancelledMail } from "../services/renewal-emails.ts";
import { DEFAULT_TRIAL_DAYS, nextRenewalOf } from "../services/views.ts";
import { accountOf } from "./helpers.ts";

const INVOICE_PAGE_SIZE = 50;

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

export function subscriptionRoutes(routes: Routes): void {
  routes.api(api.activateFreeTrial, async (ctx, { user, body, account: locked }) => {
    // Read under the account's lock (the table's accountLock: "always").
    const account = locked ?? (await accountOf(ctx, user));
    const refusal = purchaseRefusal(account, ctx.app.catalog);
    if (refusal) return fail(refusal);
    const tier = tierForVertical(body.vertical);
    const code = trialProductForTier(tier);
    const plan = code ? ctx.app.catalog.plans.find((p) => p.code === code) : undefined;
    if (!plan) return fail("trial_not_available");
    // The education trial is for a verified school address (spec 2.5 and 6); the app sends
    // anyone else to the invalid-email page first, so this refuses a crafted call.
    if (!educationEligibleFor(ctx.app.catalog, account, plan.code)) {
      return fail("education_email_required");
    }
    // One trial per person (domain/account/trials.ts): counted against the normalised
    // address, so plus tags, Gmail dots and googlemail.com get no second trial, and only
    // for an address the person has verified.
    const identity = trialIdentity(user.email);
    const trialRefused = trialRefusal({
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
    if (trialRefused) return fail(trialRefused);
    const ccRequired =
      account.sub.ccRequiredForTrial || user.properties.ccRequiredForTrial === "true";
    if (ccRequired && !user.paymentCustomer && !user.paypalSubscriptionId) {
      return fail("card_required_for_trial");
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
      return fail(apiError("invalid_request", "state must be a US state code such as CA"), {
        fields: [{ path: "state", message: "Choose a US state from the list." }],
      });
    }
    // A US address needs its state, one its ZIP code agrees with (issue 33, item 6): without it
    // the sales tax would be the "state unknown" rate, or another state's.
    const usProblem =
      body.country === "US" ? usAddressProblem(body, (code) => US_STATES[code] ?? code) : null;
    if (usProblem !== null) {
      return fail(apiError("invalid_request", usProblem.field), {
        fields: [{ path: usProblem.field, message: usProblem.message }],
      });
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
      // Cancelled before its first renewal: counted in its price experiment (decision 0089).
      await recordAfterSale(tx, ctx.app.catalog, {
        userId: account.user.id,
        kind: "cancellation",
        orderId: account.sub.orderId,
        at: now,
      });
    });
    return json({ success: true, orderState: "cancelled", orderEndDate: account.sub.orderEnd });
  });
}
