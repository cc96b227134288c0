// What a renewal charges, from the pricing module: the order summary of the product that runs in
// the new period, at its recurring figures (recurringBasePrice + extraSeatsRecurringPrice), with
// sales tax on that amount. Nothing here adds or subtracts prices by hand.
//
// Campaigns: a renewal is not a new purchase, so a campaign that happens to run on the renewal
// date does not discount it. Only the campaign the subscription was bought under can, and only
// when it is recurring (hasRecurringCampaign); it is then honoured for the life of the
// subscription, also after the campaign's window has closed and without typing its coupon again.
// A first-term campaign never recurs: recurringBasePrice leaves its discount out.
//
// Prices: the ones the subscription recorded when it was bought (price-basis.ts), unless it is
// renewing into another product or a dated price migration of the catalogue has moved it.
import type { CampaignEntry, Catalog } from "../catalog/catalog-schema.ts";
import type { PriceChoice } from "../experiments/price-choice.ts";
import {
  campaignFor,
  type PricingError,
  pricingErrors,
  safeOrderSummary,
  type TaxLocation,
  taxAmount,
} from "../pricing/index.ts";
import {
  catalogWithBasis,
  currentPriceBasis,
  type PriceBasis,
  renewalPrice,
} from "./price-basis.ts";

export type RenewalFacts = {
  /** The product of the new period: the running one, or a downgrade that takes effect now. */
  productCode: string;
  seats: number;
  /** The customer's price choice (experiment groups, price-test group value). */
  priceChoice?: PriceChoice | undefined;
  /** The id of the recurring campaign the subscription was bought under, or null. */
  recurringCampaign: string | null;
  tax?: TaxLocation | null | undefined;
  /** The prices the subscription recorded; null when none were (priced at today's). */
  basis?: PriceBasis | null | undefined;
  /** When the new period starts (a price migration moves renewals from its date on); default atMs. */
  periodStart?: number | undefined;
};

export type RenewalCharge = {
  productCode: string;
  seats: number;
  /** The months the new period lasts (the plan's term; a one-time product's validity). */
  termMonths: number;
  /** The plan (essentials variants included), its extra seats, less a recurring discount; before tax. */
  subTotal: number;
  /** The recurring campaign's discount inside subTotal (0 without one). */
  discount: number;
  salesTax: number;
  ratePercent: number;
  total: number;
  /** The recurring campaign that discounted this renewal (null when none did). */
  campaignApplied: string | null;
  /** kept: the recorded prices; current: today's (`migration` names the entry that moved it). */
  price: "kept" | "current";
  migration: string | null;
  /** The prices to record for the next renewal (null for a product that does not renew). */
  basis: PriceBasis | null;
};

export type RenewalChargeResult =
  | { ok: true; charge: RenewalCharge }
  | { ok: false; error: PricingError };

const ALWAYS = { validFrom: Number.MIN_SAFE_INTEGER, validTo: Number.MAX_SAFE_INTEGER };

/** The campaigns a renewal may use: the subscription's own, if recurring, open to it for good. */
function honouredCampaigns(catalog: Catalog, campaignId: string | null): CampaignEntry[] {
  if (campaignId === null) return [];
  return catalog.campaigns
    .filter((campaign) => campaign.id === campaignId && campaign.recurring)
    .map((campaign) => ({ ...campaign, ...ALWAYS, targeted: false }));
}

/**
 * The recurring campaign a purchase of `productCode` was priced with (the one the pricing module
 * picks for that time and coupon), or null when none applies or the one that applies discounts
 * the first term only. Stored with the subscription so that its renewals keep the discount.
 */
export function recurringCampaignOf(
  catalog: Pick<Catalog, "campaigns">,
  purchase: { productCode: string; atMs: number; coupon: string | null },
): string | null {
  const applied = campaignFor(catalog, purchase.productCode, {
    atMs: purchase.atMs,
    coupon: purchase.coupon,
  });
  return applied?.recurring ? applied.id : null;
}

/** The charge for renewing into `facts.productCode` with `facts.seats` at `atMs`. */
export function renewalCharge(
  catalog: Catalog,
  facts: RenewalFacts,
  atMs: number,
): RenewalChargeResult {
  const plan = catalog.plans.find((p) => p.code === facts.productCode);
  if (plan === undefined) return { ok: false, error: pricingErrors.unknownPlan(facts.productCode) };
  const campaigns = honouredCampaigns(catalog, facts.recurringCampaign);
  const periodStart = facts.periodStart ?? atMs;
  const price = renewalPrice(catalog, plan.code, facts.basis ?? null, periodStart);
  const pricedFrom = price.kind === "kept" ? catalogWithBasis(catalog, price.basis) : catalog;
  const result = safeOrderSummary(
    { ...pricedFrom, campaigns },
    {
      targetProduct: plan.code,
      seats: facts.seats,
      atMs,
      priceChoice: facts.priceChoice,
      tax: facts.tax ?? null,
    },
  );
  if (!result.ok) return result;
  const { summary } = result;
  const n = summary.newSubscription;
  // A recurring plan renews at its recurring figures. A one-time product (a scheduled change to
  // one) has none; its period costs what its summary does (no credit, no add-on in this request).
  const subTotal = plan.recurring
    ? n.recurringBasePrice + n.extraSeatsRecurringPrice
    : summary.subTotal;
  const ratePercent = summary.taxRates[0]?.ratePercent ?? 0;
  const salesTax = taxAmount(subTotal, ratePercent);
  const discount = plan.recurring ? n.firstTermBasePrice - n.recurringBasePrice : 0;
  return {
    ok: true,
    charge: {
      productCode: plan.code,
      seats: facts.seats,
      termMonths: plan.validMonths ?? plan.termDuration,
      subTotal,
      discount,
      salesTax,
      ratePercent,
      total: subTotal + salesTax,
      campaignApplied: discount > 0 ? facts.recurringCampaign : null,
      price: price.kind,
      migration: price.kind === "current" ? price.migration : null,
      basis:
        price.kind === "kept"
          ? price.basis
          : currentPriceBasis(catalog, plan.code, {
              priceChoice: facts.priceChoice,
              atMs: periodStart,
            }),
    },
  };
}
