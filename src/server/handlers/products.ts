// Products, plan options and the order summary.
import { api } from "../../contract/index.ts";
import { catalogVersionOf } from "../../domain/catalog/version.ts";
import { taxName } from "../../domain/pricing/index.ts";
import { loadLatestRelease } from "../catalog.ts";
import type { Ctx } from "../context.ts";
import { freeSubscription } from "../db/subscriptions.ts";
import type { User } from "../db/users.ts";
import { newUser } from "../db/users.ts";
import { fail, json } from "../http/reply.ts";
import type { Routes } from "../routing.ts";
import { educationEligibleFor, loadAccount } from "../services/account.ts";
import { priceForAccount, renewalAfter } from "../services/account-pricing.ts";
import { optionsView } from "../services/options.ts";
import { productsView } from "../services/views.ts";
import { accountOf } from "./helpers.ts";

/** A visitor who is not signed in is priced as a new free account in the default region. */
async function accountOrVisitor(ctx: Ctx) {
  const user = await ctx.user();
  if (user) return loadAccount(ctx.app.db, ctx.app.catalog, user, ctx.now(), ctx.sessionRows);
  const visitor: User = {
    id: 0,
    ...newUser({
      email: "",
      username: "",
      firstName: "",
      lastName: "",
      passwordHash: "",
      createdAt: 0,
    }),
  };
  const account = await loadAccount(ctx.app.db, ctx.app.catalog, visitor, ctx.now());
  return { ...account, sub: freeSubscription(0, ctx.now()) };
}

export function productRoutes(routes: Routes): void {
  routes.api(api.products, async (ctx, { user }) =>
    json(productsView(await accountOf(ctx, user), ctx.app.catalog, ctx.app.config.seller.country)),
  );

  // The releases file is read once, on the first ask: a release is published with a deployment.
  let release: { version: string; publishedAt: string } | null | undefined;
  routes.api(api.catalogVersion, async (ctx) => {
    if (release === undefined) {
      const latest = loadLatestRelease();
      release = latest && { version: latest.version, publishedAt: latest.publishedAt };
    }
    return json({ version: catalogVersionOf(ctx.app.catalog), release });
  });

  routes.api(api.paymentOptions, async (ctx, { query }) => {
    const user = await ctx.user();
    const account = user ? await loadAccount(ctx.app.db, ctx.app.catalog, user, ctx.now()) : null;
    return json(
      optionsView(ctx.app.catalog, {
        tier: query.tier,
        newPlans: query.new === "true",
        trial: query.trial === "true",
        coupon: query.promoId ?? user?.appliedCoupon ?? null,
        priceTestingGroupValue: user?.priceTestingGroupValue ?? null,
        currentProduct: account?.productCode ?? null,
        atMs: ctx.now(),
      }),
    );
  });

  routes.api(api.orderSummary, async (ctx, { body }) => {
    const account = await accountOrVisitor(ctx);
    const targetProduct =
      typeof body.targetProduct === "string" ? body.targetProduct : body.targetProduct.code;
    // Spec 6: a signed-in account is quoted an education plan only with a verified education
    // address. A visitor sees the price the plans page shows, and signs in before the checkout.
    if (
      (await ctx.user()) !== null &&
      !educationEligibleFor(ctx.app.catalog, account, targetProduct)
    ) {
      return fail("education_email_required");
    }
    const priced = priceForAccount(ctx.app.catalog, account, {
      targetProduct,
      seats: body.seats,
      addOns: body.addOns,
      coupon: body.coupon,
      sellerCountry: ctx.app.config.seller.country,
    });
    if (!priced.ok) return fail(priced.error);
    const { summary, seats, change, startsAt } = priced.pricing;
    const renewal = renewalAfter(ctx.app.catalog, account, priced.pricing, {
      targetProduct,
      addOns: body.addOns,
      sellerCountry: ctx.app.config.seller.country,
    });
    return json({
      ...summary,
      productCode: targetProduct,
      seats,
      currency: "USD",
      change: change === "same" ? "upgrade" : change,
      startsAt,
      // The tax line as the buyer's country calls it (issue 33, item 6).
      taxLabel: taxName(account.location.countryCode),
      renewal: renewal && {
        at: renewal.at,
        amount: renewal.amount,
        tax: renewal.tax,
        termMonths: renewal.termMonths,
      },
    });
  });
}
