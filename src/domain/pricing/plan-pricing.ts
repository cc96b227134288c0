// The first-term price of one plan for one customer: seats, seat bands, price set and campaign.
// quote() and orderSummary() both start here, so a quote and an order never disagree.
import type {
  Catalog,
  PlanEntry,
  SeatBandEntry,
  SeatStructure,
} from "../catalog/catalog-schema.ts";
import {
  type AppliedCampaign,
  alreadyRedeemed,
  campaignDiscount,
  campaignFor,
  couponMatches,
  couponProblem,
} from "./campaigns.ts";
import { pricingErrors, type Result } from "./errors.ts";
import { planPrice } from "./price-sets.ts";
import { planLabel } from "./resolve-plan.ts";
import { extraSeatCount, seatBandTotal, seatStructureFor } from "./seats.ts";

export type PlanPricingRequest = {
  atMs: number;
  seats?: number | undefined;
  coupon?: string | null | undefined;
  priceSetId: string | null;
  seatStructure?: string | undefined;
  /** Coupons the account has redeemed: their first-term discounts are not taken again. */
  redeemedCoupons?: readonly string[] | undefined;
};

/**
 * What became of the coupon the customer typed: applied, or not and why (it is for other
 * products, or its first-term discount was already taken). Null when no coupon was typed.
 */
export type CouponStatus = { code: string; applied: boolean; note: string | null } | null;

export type PlanPricing = {
  plan: PlanEntry;
  priceSet: string | null;
  /** Term price in the price set; for a banded plan, the band total for all seats. */
  basePrice: number;
  seats: number;
  /** Seats covered by basePrice: every seat of a banded plan, 1 for a single-user plan. */
  includedSeats: number;
  extraSeats: number;
  /** One extra seat for the term; null when the plan sells no extra seats. */
  extraSeatPrice: number | null;
  /** extraSeats × extraSeatPrice. */
  extraSeatsAmount: number;
  seatBand: { structure: SeatStructure; band: SeatBandEntry } | null;
  /** The campaign and the discount it takes off basePrice (positive, at most basePrice). */
  campaign: { applied: AppliedCampaign; discount: number } | null;
  coupon: CouponStatus;
};

type SeatPricing = Pick<
  PlanPricing,
  | "basePrice"
  | "seats"
  | "includedSeats"
  | "extraSeats"
  | "extraSeatPrice"
  | "extraSeatsAmount"
  | "seatBand"
>;

function priceSeats(
  catalog: Pick<Catalog, "seatStructures">,
  plan: PlanEntry,
  prices: { price: number; seatPrice: number },
  request: PlanPricingRequest,
): Result<SeatPricing> {
  const structureResult = seatStructureFor(catalog, plan, request.seatStructure);
  if (!structureResult.ok) return structureResult;
  const structure = structureResult.value;
  const minimum = Math.max(1, plan.minSeats, structure?.minimumSeats ?? 0);
  const isMultiSeat = plan.multiUser || structure !== null;
  const seats = request.seats ?? (isMultiSeat ? Math.max(minimum, plan.includedSeats) : 1);
  if (!Number.isSafeInteger(seats) || seats < 1) {
    return { ok: false, error: pricingErrors.invalidSeats(seats) };
  }
  if (seats < minimum) {
    return { ok: false, error: pricingErrors.seatsBelowMinimum(plan.name, minimum, seats) };
  }
  if (plan.maxSeats !== null && seats > plan.maxSeats) {
    return { ok: false, error: pricingErrors.seatsAboveMaximum(plan.maxSeats, seats) };
  }
  if (structure !== null) {
    const band = seatBandTotal(structure, seats);
    if (!band.ok) return band;
    const value = { basePrice: band.total, seats, includedSeats: seats, extraSeats: 0 };
    return {
      ok: true,
      value: {
        ...value,
        extraSeatPrice: null,
        extraSeatsAmount: 0,
        seatBand: { structure, band: band.band },
      },
    };
  }
  const includedSeats = plan.multiUser ? Math.max(0, plan.includedSeats) : 1;
  const extraSeats = extraSeatCount(includedSeats, seats);
  const sellsSeats = plan.multiUser && prices.seatPrice >= 0;
  if (extraSeats > 0 && !sellsSeats) {
    return { ok: false, error: pricingErrors.extraSeatsNotSold(plan.name, includedSeats, seats) };
  }
  return {
    ok: true,
    value: {
      basePrice: prices.price,
      seats,
      includedSeats,
      extraSeats,
      extraSeatPrice: sellsSeats ? prices.seatPrice : null,
      extraSeatsAmount: sellsSeats ? extraSeats * prices.seatPrice : 0,
      seatBand: null,
    },
  };
}

export function pricePlan(
  catalog: Pick<Catalog, "seatStructures" | "campaigns">,
  plan: PlanEntry,
  request: PlanPricingRequest,
): Result<PlanPricing> {
  if (!Number.isFinite(request.atMs))
    return { ok: false, error: pricingErrors.invalidTime(request.atMs) };
  const prices = planPrice(plan, request.priceSetId);
  const seatResult = priceSeats(catalog, plan, prices, request);
  if (!seatResult.ok) return seatResult;
  const seatPricing = seatResult.value;

  const context = {
    atMs: request.atMs,
    coupon: request.coupon,
    redeemed: request.redeemedCoupons,
  };
  // A coupon for other products is not applied to this one, and the customer is told; a coupon
  // that does not exist or is outside its window is still refused (issue 18, item 10).
  const typed = (request.coupon ?? "").trim();
  const problem = couponProblem(catalog, plan.code, planLabel(plan), context);
  let note: string | null = null;
  if (problem?.code === "COUPON_NOT_FOR_PLAN") {
    note = pricingErrors.couponNotApplied(typed, planLabel(plan)).message;
  } else if (problem !== null) return { ok: false, error: problem };
  const applied = campaignFor(catalog, plan.code, context);
  // The discount is measured against the plan's own price in the price set; on a banded plan it
  // comes off the band total, and never takes the price below 0.
  const discount = applied === null ? null : campaignDiscount(prices.price, applied.price);
  const taken = discount === null ? 0 : Math.min(discount, seatPricing.basePrice);
  return {
    ok: true,
    value: {
      plan,
      priceSet: request.priceSetId,
      ...seatPricing,
      campaign: applied !== null && taken > 0 ? { applied, discount: taken } : null,
      coupon: typed === "" ? null : couponStatus(catalog, plan.code, typed, note, request, applied),
    },
  };
}

function couponStatus(
  catalog: Pick<Catalog, "campaigns">,
  planCode: string,
  typed: string,
  note: string | null,
  request: PlanPricingRequest,
  applied: AppliedCampaign | null,
): CouponStatus {
  if (note !== null) return { code: typed, applied: false, note };
  if (applied?.couponMatched) return { code: typed, applied: true, note: null };
  const redeemed = catalog.campaigns.some(
    (c) =>
      couponMatches(c, typed) &&
      c.products.includes(planCode) &&
      alreadyRedeemed(c, request.redeemedCoupons),
  );
  return {
    code: typed,
    applied: false,
    note: redeemed ? pricingErrors.couponAlreadyRedeemed(typed).message : null,
  };
}
