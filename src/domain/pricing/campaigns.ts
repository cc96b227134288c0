// Campaigns (spec sections 3.9 and 4). A campaign is active from validFrom (inclusive) to validTo
// (exclusive). A targeted campaign applies only to customers whose coupon matches; a non-targeted
// one applies to everyone in its window, and its coupon is accepted too. Coupons compare
// case-insensitively. A recurring campaign discounts every term, any other the first term only.
import type { CampaignEntry, Catalog } from "../catalog/catalog-schema.ts";
import { type PricingError, pricingErrors } from "./errors.ts";

export type CampaignContext = {
  atMs: number;
  coupon?: string | null | undefined;
  /**
   * Coupons this account has redeemed (issue 18, item 5): a campaign with one of them that
   * discounts the first term only is not applied again. Recurring campaigns are unaffected.
   */
  redeemed?: readonly string[] | undefined;
};

/** Whether a campaign's first-term discount was already taken with one of these coupons. */
export function alreadyRedeemed(
  campaign: Pick<CampaignEntry, "coupon" | "recurring">,
  redeemed: readonly string[] | undefined,
): boolean {
  return !campaign.recurring && (redeemed ?? []).some((r) => couponMatches(campaign, r));
}

/** A campaign that applies to one plan, with that plan's campaign price. */
export type AppliedCampaign = CampaignEntry & {
  /** The campaign price of the plan's term, in cents. */
  price: number;
  /** The customer's coupon matched this campaign's coupon. */
  couponMatched: boolean;
};

export function isCampaignActive(
  campaign: Pick<CampaignEntry, "validFrom" | "validTo">,
  atMs: number,
): boolean {
  return campaign.validFrom <= atMs && atMs < campaign.validTo;
}

export function activeCampaigns(
  catalog: Pick<Catalog, "campaigns">,
  atMs: number,
): CampaignEntry[] {
  return catalog.campaigns.filter((campaign) => isCampaignActive(campaign, atMs));
}

function normaliseCoupon(coupon: string | null | undefined): string {
  return (coupon ?? "").trim().toLowerCase();
}

export function couponMatches(
  campaign: Pick<CampaignEntry, "coupon">,
  coupon: string | null | undefined,
): boolean {
  const wanted = normaliseCoupon(coupon);
  return wanted !== "" && normaliseCoupon(campaign.coupon) === wanted;
}

function priceIn(campaign: CampaignEntry, planCode: string): number | undefined {
  return campaign.products.includes(planCode) ? campaign.prices[planCode] : undefined;
}

/**
 * The campaign that prices a plan for this customer at this time, or null. When several apply,
 * the lowest campaign price wins (the customer gets the best offer); on a tie, the one the coupon
 * matched, then the first in the catalogue.
 */
export function campaignFor(
  catalog: Pick<Catalog, "campaigns">,
  planCode: string,
  { atMs, coupon, redeemed }: CampaignContext,
): AppliedCampaign | null {
  let best: AppliedCampaign | null = null;
  for (const campaign of catalog.campaigns) {
    const price = priceIn(campaign, planCode);
    if (price === undefined || !isCampaignActive(campaign, atMs)) continue;
    if (alreadyRedeemed(campaign, redeemed)) continue;
    const couponMatched = couponMatches(campaign, coupon);
    if (campaign.targeted && !couponMatched) continue;
    const better =
      best === null ||
      price < best.price ||
      (price === best.price && couponMatched && !best.couponMatched);
    if (better) best = { ...campaign, price, couponMatched };
  }
  return best;
}

/** Campaign discount: price − campaign price, or null unless that is positive. */
export function campaignDiscount(priceCents: number, campaignPriceCents: number): number | null {
  const discount = priceCents - campaignPriceCents;
  return discount > 0 ? discount : null;
}

/**
 * Why a coupon the customer typed cannot be used for this plan now, or null when it can. An
 * empty coupon is no coupon. `planLabel` names the plan in the message ("Power, billed monthly").
 */
export function couponProblem(
  catalog: Pick<Catalog, "campaigns">,
  planCode: string,
  planLabel: string,
  { atMs, coupon }: CampaignContext,
): PricingError | null {
  const typed = (coupon ?? "").trim();
  if (typed === "") return null;
  const withCoupon = catalog.campaigns.filter((campaign) => couponMatches(campaign, typed));
  if (withCoupon.length === 0) return pricingErrors.couponUnknown(typed);
  const active = withCoupon.filter((campaign) => isCampaignActive(campaign, atMs));
  if (active.length === 0) {
    return withCoupon.some((campaign) => atMs < campaign.validFrom)
      ? pricingErrors.couponNotStarted(typed)
      : pricingErrors.couponExpired(typed);
  }
  if (!active.some((campaign) => priceIn(campaign, planCode) !== undefined)) {
    return pricingErrors.couponNotForPlan(typed, planLabel);
  }
  return null;
}
