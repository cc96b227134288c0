// Products, plan options and the order summary.
import { api } from "../../contract/index.ts";
import { catalogVersionOf } from "../../domain/catalog/version.ts";
import { taxName } from "../../domain/pricing/index.ts";
import { loadLatestRelease } from "../catalog.ts";
import { fail, json } from "../http/reply.ts";
import type { Routes } from "../routing.ts";
import { type Account, educationEligibleFor } from "../services/account.ts";
import { priceForAccount, renewalAfter } from "../services/account-pricing.ts";
import { recordEnrolledEvent } from "../services/experiments.ts";
import { optionsView } from "../services/options.ts";
import { productsView } from "../services/views.ts";
import { accountOf, pricedAccountOf } from "./helpers.ts";

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
    const view = (account: Account) =>
      optionsView(ctx.app.catalog, {
        tier: query.tier,
        newPlans: query.new === "true",
        trial: query.trial === "true",
        coupon: query.promoId ?? user?.appliedCoupon ?? null,
        priceChoice: account.priceChoice,
        currentProduct: user ? account.productCode : null,
        atMs: ctx.now(),
      });
    // The plans answered are the plans shown: their experiments' exposures are recorded.
    const account = await pricedAccountOf(ctx, (a) => view(a).products.map((p) => p.code));
    return json(view(account));
  });

  routes.api(api.orderSummary, async (ctx, { body }) => {
    const targetProduct =
      typeof body.targetProduct === "string" ? body.targetProduct : body.targetProduct.code;
    const account = await pricedAccountOf(ctx, () => [targetProduct]);
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
    // The checkout started in the customer's group (decision 0089): once per experiment.
    await recordEnrolledEvent(ctx.app.db, account, {
      kind: "checkout",
      productCode: targetProduct,
      orderId: null,
      at: account.now,
    });
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
