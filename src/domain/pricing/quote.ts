// quote(): the price of one plan for one customer, as `catalog quote`, the plans pages and the
// checkout show it. Errors are results with customer-facing messages (errors.ts).
import type { Catalog } from "../catalog/catalog-schema.ts";
import { choiceOfGroup, type PriceChoice, priceSetForPlan } from "../experiments/price-choice.ts";
import type { PricingError } from "./errors.ts";
import { discountLabel, extraSeatsLabel, type PriceLine, sumLines } from "./lines.ts";
import { formatCount } from "./money.ts";
import { type CouponStatus, pricePlan } from "./plan-pricing.ts";
import { planLabel, resolvePlan } from "./resolve-plan.ts";
import {
  extraSeatMonthlyPrice,
  type Mode,
  modeForTerm,
  monthlyPrice,
  type RequestMode,
  type TermMonths,
} from "./terms.ts";

export type QuoteRequest = {
  /** A product code (wv_single_12m) or a family id (power). */
  plan: string;
  /** Billing mode; a family id without one is quoted annual. */
  mode?: RequestMode | undefined;
  /** Seats; defaults to the plan's minimum (1 for single-user plans). */
  seats?: number | undefined;
  coupon?: string | undefined;
  /** Time of the quote in ms, for campaign windows. */
  atMs: number;
  /** The customer's price choice (experiment groups, priceTestingGroupValue). */
  priceChoice?: PriceChoice | undefined;
  /**
   * Without priceChoice: a price-set id or a priceTestingGroupValue (`catalog quote --price-group`,
   * the plans pages); unknown values mean default prices.
   */
  priceGroup?: string | undefined;
  /** Seat-structure id; defaults to the plan's structure. */
  seatStructure?: string | undefined;
};

export type Quote = {
  plan: {
    code: string;
    name: string;
    termDuration: TermMonths;
    family: string;
    recurring: boolean;
  };
  mode: Mode;
  /** The price set used, null for default prices. */
  priceSet: string | null;
  /** Term price before any campaign; for a banded plan the band total for all seats. */
  price: number;
  /** price / term months, rounded half up to the cent. */
  monthlyEquivalent: number;
  seats: number;
  /** Seats covered by price (1 for single-user plans; every seat of a banded plan). */
  includedSeats: number;
  extraSeats: number;
  /** One extra seat for the term; null when the plan sells no extra seats. */
  extraSeatPrice: number | null;
  extraSeatMonthly: number | null;
  seatBand: { structure: string; from: number; to: number } | null;
  campaign: {
    id: string;
    name: string;
    coupon: string;
    recurring: boolean;
    /** Price after the campaign's discount. */
    price: number;
    discount: number;
    monthlyEquivalent: number;
  } | null;
  /** The coupon asked for: applied, or not and why (for other plans); null without one. */
  coupon: CouponStatus;
  /** What the first term charges; amounts sum to total. */
  lines: PriceLine[];
  /** First-term total in cents. */
  total: number;
};

export type QuoteResult = { ok: true; quote: Quote } | { ok: false; error: PricingError };

export function quote(catalog: Catalog, request: QuoteRequest): QuoteResult {
  const resolved = resolvePlan(catalog, request.plan, request.mode);
  if (!resolved.ok) return resolved;
  const plan = resolved.value;
  const priced = pricePlan(catalog, plan, {
    atMs: request.atMs,
    seats: request.seats,
    coupon: request.coupon,
    priceSetId: priceSetForPlan(
      catalog,
      request.priceChoice ?? choiceOfGroup(request.priceGroup),
      plan.code,
    ),
    seatStructure: request.seatStructure,
  });
  if (!priced.ok) return priced;
  const p = priced.value;
  const term = plan.termDuration;

  const planLine =
    p.seatBand === null ? planLabel(plan) : `${planLabel(plan)}, ${formatCount(p.seats)} seats`;
  const lines: PriceLine[] = [{ kind: "plan", label: planLine, amount: p.basePrice }];
  if (p.extraSeats > 0 && p.extraSeatPrice !== null) {
    lines.push({
      kind: "extraSeats",
      label: extraSeatsLabel(p.extraSeats, p.extraSeatPrice),
      amount: p.extraSeatsAmount,
    });
  }
  const campaign = p.campaign;
  if (campaign !== null) {
    lines.push({
      kind: "discount",
      label: discountLabel(campaign.applied.name, campaign.applied.recurring, term),
      amount: -campaign.discount,
    });
  }

  return {
    ok: true,
    quote: {
      plan: {
        code: plan.code,
        name: plan.name,
        termDuration: term,
        family: plan.family,
        recurring: plan.recurring,
      },
      mode: modeForTerm(term),
      priceSet: p.priceSet,
      price: p.basePrice,
      monthlyEquivalent: monthlyPrice(p.basePrice, term),
      seats: p.seats,
      includedSeats: p.includedSeats,
      extraSeats: p.extraSeats,
      extraSeatPrice: p.extraSeatPrice,
      extraSeatMonthly:
        p.extraSeatPrice === null ? null : extraSeatMonthlyPrice(p.extraSeatPrice, term),
      seatBand:
        p.seatBand === null
          ? null
          : {
              structure: p.seatBand.structure.id,
              from: p.seatBand.band.from,
              to: p.seatBand.band.to,
            },
      campaign:
        campaign === null
          ? null
          : {
              id: campaign.applied.id,
              name: campaign.applied.name,
              coupon: campaign.applied.coupon,
              recurring: campaign.applied.recurring,
              price: p.basePrice - campaign.discount,
              discount: campaign.discount,
              monthlyEquivalent: monthlyPrice(p.basePrice - campaign.discount, term),
            },
      coupon: p.coupon,
      lines,
      total: sumLines(lines),
    },
  };
}
