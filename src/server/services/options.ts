// GET /api/3/payment/options: the plans of a tier as the plans page and checkout show them
// (spec 3.4), every figure from the pricing module.
import type { z } from "zod";
import type { OptionsResponse, PlanOption } from "../../contract/products.ts";
import { resolveTier, type Tier, trialProductForTier } from "../../domain/account/tier.ts";
import type { Catalog, PlanEntry } from "../../domain/catalog/catalog-schema.ts";
import { type PriceChoice, priceSetForPlan } from "../../domain/experiments/price-choice.ts";
import {
  campaignDiscount,
  campaignFor,
  monthlyPrice,
  planPrice,
  savingsPercent,
} from "../../domain/pricing/index.ts";

export type OptionsRequest = {
  tier: string | undefined;
  newPlans: boolean;
  trial: boolean;
  coupon: string | null;
  /** The customer's price choice: its priceTestingGroupValue is answered back as it was. */
  priceChoice: PriceChoice;
  currentProduct: string | null;
  atMs: number;
};

function categoryOf(tier: Tier): PlanEntry["category"] | null {
  if (tier === "business") return "business";
  if (tier === "education") return "education";
  if (tier === "playposit") return null;
  return "personal";
}

export function planOption(
  catalog: Catalog,
  plan: PlanEntry,
  context: {
    priceChoice: PriceChoice;
    coupon: string | null;
    atMs: number;
    currentProduct: string | null;
  },
): z.input<typeof PlanOption> {
  // Each plan in the price set the customer's choice gives it (an experiment prices some plans).
  const priced = (p: PlanEntry) =>
    planPrice(p, priceSetForPlan(catalog, context.priceChoice, p.code));
  const prices = priced(plan);
  const applied = campaignFor(catalog, plan.code, { atMs: context.atMs, coupon: context.coupon });
  const discount = applied ? campaignDiscount(prices.price, applied.price) : null;
  const campaign = applied && discount !== null ? { ...applied, discount } : null;
  const price = campaign && !campaign.recurring ? campaign.price : prices.price;
  const byCode = (code: string | null) =>
    code ? catalog.plans.find((p) => p.code === code) : undefined;
  const monthlyVersion = byCode(plan.monthlyVersion);
  const upgrade = byCode(plan.essentialsUpgrade);
  const annualSavings =
    plan.termDuration === 12 && monthlyVersion && monthlyVersion.code !== plan.code
      ? savingsPercent(
          {
            price: priced(monthlyVersion).price,
            termDuration: monthlyVersion.termDuration,
          },
          { price: prices.price, termDuration: plan.termDuration },
        )
      : null;
  return {
    code: plan.code,
    productId: plan.code,
    name: plan.name,
    subTitle: plan.subTitle,
    tier: plan.tier,
    category: plan.category,
    description: plan.description,
    price,
    listPrice: prices.price,
    capacity: plan.capacity,
    multiUser: plan.multiUser,
    termDuration: plan.termDuration,
    recurring: plan.recurring,
    showYearly: plan.showYearly,
    monthlyPrice: monthlyPrice(price, plan.termDuration),
    monthlyDuration: plan.termDuration,
    monthlyVersionPrice: monthlyVersion ? priced(monthlyVersion).price : null,
    // The campaign's saving in whole percent, from the same rule as the annual saving.
    campaignDiscountPercent: campaign
      ? savingsPercent(
          { price: prices.price, termDuration: 1 },
          { price: campaign.price, termDuration: 1 },
        )
      : null,
    campaignDiscountPercentFound: campaign !== null,
    hasRecurringCampaign: campaign?.recurring ?? false,
    hasAnnualCampaignPrice: campaign !== null && plan.termDuration === 12,
    campaign: campaign
      ? {
          id: campaign.id,
          name: campaign.name,
          coupon: campaign.coupon,
          price: campaign.price,
          discount: campaign.discount,
        }
      : null,
    essentials: plan.essentials,
    essentialsPrice: plan.essentialsPrice,
    essentialsDowngrade: plan.essentialsDowngrade
      ? { code: plan.essentialsDowngrade, essentialsPrice: plan.essentialsPrice }
      : null,
    essentialsUpgrade: upgrade
      ? {
          code: upgrade.code,
          price: priced(upgrade).price,
          essentialsPrice: upgrade.essentialsPrice,
        }
      : null,
    currentPlan: plan.code === context.currentProduct,
    seatPrice: prices.seatPrice,
    includedSeats: plan.includedSeats > 0 ? plan.includedSeats : -1,
    savingsValue: annualSavings,
    gbPerSeat: plan.gbPerSeat,
    hoursPerSeat: plan.hoursPerSeat,
    includedGb: plan.includedGb,
    includedHrs: plan.includedHrs,
    includedContentTier: plan.includedContentTier,
    maxPublishResolution: plan.maxPublishResolution,
    premiumMusic: plan.premiumMusic,
    premiumTemplates: plan.premiumTemplates,
    vertical: plan.vertical,
    screenCapture: plan.screenCapture,
    dualCapture: plan.dualCapture,
    trialDuration: plan.trialDuration,
    isTrial: plan.isTrial,
  };
}

export function optionsView(
  catalog: Catalog,
  request: OptionsRequest,
): z.input<typeof OptionsResponse> {
  const tier = resolveTier({ tier: request.tier ?? null });
  const category = categoryOf(tier);
  const context = {
    priceChoice: request.priceChoice,
    coupon: request.coupon,
    atMs: request.atMs,
    currentProduct: request.currentProduct,
  };
  const plans = catalog.plans
    .filter((p) => category !== null && p.category === category && !p.isTrial)
    .filter((p) => !(request.newPlans && p.legacy))
    .sort((a, b) => a.order - b.order);
  const trialCode = request.trial ? trialProductForTier(tier) : null;
  const trial = trialCode ? catalog.plans.find((p) => p.code === trialCode) : undefined;
  return {
    products: plans.map((p) => planOption(catalog, p, context)),
    essentialsPlan: catalog.essentials.addOns.map((addOn) => ({
      code: addOn.code,
      name: addOn.name,
      subTitle: addOn.subTitle,
      productId: addOn.code,
      description:
        addOn.description.length > 0 ? addOn.description : catalog.essentials.description,
      price: addOn.price,
      termDuration: addOn.termDuration,
      recurring: true as const,
      essentials: true as const,
      essentialsPrice: addOn.price,
    })),
    trialProduct: trial ? planOption(catalog, trial, context) : null,
    priceTestingGroupValue: request.priceChoice.groupValue,
  };
}
