// orderSummary(): the spec 3.5 order summary that POST /api/4/payment/summary returns: the new
// subscription's first term, credit for the unused part of the current one, add-ons and sales tax.
// All figures are integer cents; subTotal is the sum of `lines`, total = subTotal + salesTax.
import type { Catalog } from "../catalog/catalog-schema.ts";
import { NO_CHOICE, type PriceChoice, priceSetForPlan } from "../experiments/price-choice.ts";
import { type AddOns, priceAddOns } from "./add-ons.ts";
import { additionTo } from "./additions.ts";
import { type PricingError, PricingRequestError, pricingErrors } from "./errors.ts";
import { discountLabel, extraSeatsLabel, type PriceLine, sumLines } from "./lines.ts";
import { formatCount, mulDivRoundHalfUp } from "./money.ts";
import { type CouponStatus, type PlanPricing, pricePlan } from "./plan-pricing.ts";
import { planPrice } from "./price-sets.ts";
import { planLabel, resolvePlan } from "./resolve-plan.ts";
import { extraSeatCount, seatStructureFor } from "./seats.ts";
import { type TaxLocation, taxAmount, taxRatePercent } from "./tax.ts";

export type CurrentSubscription = {
  planCode: string;
  seats: number;
  /** Start and end of the period already paid for, in ms. */
  periodStart: number;
  periodEnd: number;
  /** What was paid for that period, in cents. */
  paidCents: number;
};

export type OrderSummaryRequest = {
  /** The plan code bought; a single-export or export-upgrade code buys just that. */
  targetProduct: string;
  seats?: number | undefined;
  /** Codes of single exports, export upgrades (both one-off) or an essentials add-on (renews). */
  addOns?: readonly string[] | undefined;
  atMs: number;
  coupon?: string | undefined;
  /** The customer's price choice (experiment groups, priceTestingGroupValue); default prices without. */
  priceChoice?: PriceChoice | undefined;
  seatStructure?: string | undefined;
  current?: CurrentSubscription | null | undefined;
  tax?: TaxLocation | null | undefined;
  /** Coupons the account has redeemed: their first-term discounts apply once (issue 18, item 5). */
  redeemedCoupons?: readonly string[] | undefined;
};

export type OrderSummary = {
  total: number;
  subTotal: number;
  newSubscription: {
    /** Campaign discount on the first term (recurring campaigns also lower recurringBasePrice). */
    firstTermDiscount: number;
    /** Plan price (or band total) plus an essentials add-on, before the discount. */
    firstTermBasePrice: number;
    /** Credit for the current subscription, equal to proration.prorateAmount. */
    prorateDiscount: number;
    /** What the plan and essentials renew at each term; 0 for one-time products. */
    recurringBasePrice: number;
    firstTermExtraSeatsPrice: number;
    extraSeatsRecurringPrice: number;
    nonRecurringAddOnsPrice: number;
  };
  proration: {
    /** paid × unused fraction of the current period, rounded half up, at most the new first term. */
    prorateAmount: number;
    /** Extra seats of the current subscription for its term (informational). */
    currentExtraSeatsPrice: number;
    /** Unused fraction of the current period, 0 to 1 (informational). */
    prorateRatio: number;
  };
  taxRates: { type: "COMBINED"; taxAmount: number; ratePercent: number }[];
  salesTax: number;
  /** The lines of subTotal: plan, essentials, extra seats, discount, credit, add-ons. */
  lines: PriceLine[];
  /**
   * Set when the order adds seats or essentials to the running period (additions.ts): the lines
   * charge them pro rata for its rest, and the subscription keeps its renewal date `periodEnd`.
   * newSubscription then says what renews on that date.
   */
  addition: { periodEnd: number; ratio: number; termValueAdded: number } | null;
  /** The coupon typed, whether it was applied, and if not why (plan-pricing.ts); null for none. */
  coupon: CouponStatus;
};

export type OrderSummaryResult =
  | { ok: true; summary: OrderSummary }
  | { ok: false; error: PricingError };

function currentExtraSeatsPrice(
  catalog: Catalog,
  current: CurrentSubscription,
  priceSetId: string | null,
): number {
  const plan = catalog.plans.find((p) => p.code === current.planCode);
  // A plan no longer in the catalogue still gets its credit; only this informational figure is lost.
  if (plan === undefined || !plan.multiUser) return 0;
  const structure = seatStructureFor(catalog, plan);
  if (!structure.ok || structure.value !== null) return 0;
  const { seatPrice } = planPrice(plan, priceSetId);
  return seatPrice < 0 ? 0 : extraSeatCount(plan.includedSeats, current.seats) * seatPrice;
}

/**
 * What the unused part of the current period is worth: paid × unused fraction, rounded half up.
 * The order summary credits at most the new first term; a plan change that would forfeit the rest
 * is a downgrade (domain/account/plan-change.ts).
 */
export function unusedCredit(current: CurrentSubscription, atMs: number): number {
  const span = current.periodEnd - current.periodStart;
  if (span <= 0) return 0;
  const unused = Math.min(span, Math.max(0, current.periodEnd - atMs));
  return mulDivRoundHalfUp(current.paidCents, unused, span);
}

function isValidCurrent(c: CurrentSubscription): boolean {
  return (
    [c.seats, c.periodStart, c.periodEnd, c.paidCents].every(Number.isSafeInteger) &&
    c.periodEnd > c.periodStart &&
    c.paidCents >= 0 &&
    c.seats >= 0
  );
}

function planLines(p: PlanPricing, essentials: AddOns["essentials"]): PriceLine[] {
  const { plan } = p;
  const label =
    p.seatBand === null ? planLabel(plan) : `${planLabel(plan)}, ${formatCount(p.seats)} seats`;
  const lines: PriceLine[] = [{ kind: "plan", label, amount: p.basePrice }];
  if (essentials !== null)
    lines.push({ kind: "essentials", label: essentials.name, amount: essentials.price });
  if (p.extraSeats > 0 && p.extraSeatPrice !== null) {
    lines.push({
      kind: "extraSeats",
      label: extraSeatsLabel(p.extraSeats, p.extraSeatPrice),
      amount: p.extraSeatsAmount,
    });
  }
  if (p.campaign !== null) {
    const { applied, discount } = p.campaign;
    lines.push({
      kind: "discount",
      label: discountLabel(applied.name, applied.recurring, plan.termDuration),
      amount: -discount,
    });
  }
  return lines;
}

/** The order summary, or the reason it cannot be priced. */
export function safeOrderSummary(
  catalog: Catalog,
  request: OrderSummaryRequest,
): OrderSummaryResult {
  const { atMs, current } = request;
  if (!Number.isFinite(atMs)) return { ok: false, error: pricingErrors.invalidTime(atMs) };
  if (current && !isValidCurrent(current)) {
    return { ok: false, error: pricingErrors.invalidCurrentSubscription() };
  }
  const priceSetId = priceSetForPlan(
    catalog,
    request.priceChoice ?? NO_CHOICE,
    request.targetProduct,
  );
  const addOnCodes = request.addOns ?? [];
  const isOneOff =
    !catalog.plans.some((plan) => plan.code === request.targetProduct) &&
    [...catalog.singleExports, ...catalog.exportUpgrades].some(
      (e) => e.code === request.targetProduct,
    );

  let priced: PlanPricing | null = null;
  if (!isOneOff) {
    const resolved = resolvePlan(catalog, request.targetProduct);
    if (!resolved.ok) return resolved;
    const result = pricePlan(catalog, resolved.value, {
      atMs,
      seats: request.seats,
      coupon: request.coupon,
      priceSetId,
      seatStructure: request.seatStructure,
      redeemedCoupons: request.redeemedCoupons,
    });
    if (!result.ok) return result;
    priced = result.value;
  }
  const addOns = priceAddOns(
    catalog,
    priced?.plan ?? null,
    isOneOff ? [request.targetProduct, ...addOnCodes] : addOnCodes,
  );
  if (!addOns.ok) return addOns;
  const { essentials, nonRecurring } = addOns.value;

  const recurring = priced?.plan.recurring ?? false;
  const discount = priced?.campaign?.discount ?? 0;
  const essentialsPrice = essentials?.price ?? 0;
  const firstTermBasePrice = (priced?.basePrice ?? 0) + essentialsPrice;
  const firstTermExtraSeatsPrice = priced?.extraSeatsAmount ?? 0;
  const newFirstTerm = firstTermBasePrice - discount + firstTermExtraSeatsPrice;

  // Seats or essentials added to the running period: the rest of the period, pro rata.
  const addition =
    current && priced !== null
      ? additionTo(catalog, current, {
          priced,
          addsEssentials: essentials,
          atMs,
          priceSetId,
        })
      : null;
  if (addition !== null && priced !== null && current) {
    const lines = [...addition.lines, ...nonRecurring];
    const subTotal = sumLines(lines);
    const ratePercent = request.tax ? taxRatePercent(catalog, request.tax) : 0;
    const salesTax = taxAmount(subTotal, ratePercent);
    return {
      ok: true,
      summary: {
        total: subTotal + salesTax,
        subTotal,
        newSubscription: {
          firstTermDiscount: 0,
          firstTermBasePrice,
          prorateDiscount: 0,
          recurringBasePrice: firstTermBasePrice,
          firstTermExtraSeatsPrice,
          extraSeatsRecurringPrice: firstTermExtraSeatsPrice,
          nonRecurringAddOnsPrice: sumLines(nonRecurring),
        },
        proration: {
          prorateAmount: 0,
          currentExtraSeatsPrice: currentExtraSeatsPrice(catalog, current, priceSetId),
          prorateRatio: addition.ratio,
        },
        taxRates: [{ type: "COMBINED", taxAmount: salesTax, ratePercent }],
        salesTax,
        lines,
        addition: {
          periodEnd: addition.periodEnd,
          ratio: addition.ratio,
          termValueAdded: addition.termValueAdded,
        },
        coupon:
          priced.coupon === null
            ? null
            : {
                code: priced.coupon.code,
                applied: false,
                note: pricingErrors.couponNotForAddition(priced.coupon.code).message,
              },
      },
    };
  }

  // Credit for the unused part of the period already paid: only when the subscription changes.
  let prorateAmount = 0;
  let prorateRatio = 0;
  let currentSeats = 0;
  if (current && priced !== null) {
    const span = current.periodEnd - current.periodStart;
    const unused = Math.min(span, Math.max(0, current.periodEnd - atMs));
    prorateRatio = unused / span;
    prorateAmount = Math.min(newFirstTerm, unusedCredit(current, atMs));
    currentSeats = currentExtraSeatsPrice(catalog, current, priceSetId);
  }

  const lines = priced === null ? [] : planLines(priced, essentials);
  if (prorateAmount > 0) {
    lines.push({
      kind: "proration",
      label: "Credit for the unused part of your current plan",
      amount: -prorateAmount,
    });
  }
  lines.push(...nonRecurring);
  const subTotal = sumLines(lines);
  const ratePercent = request.tax ? taxRatePercent(catalog, request.tax) : 0;
  const salesTax = taxAmount(subTotal, ratePercent);
  const campaignRenews = priced?.campaign?.applied.recurring ?? false;

  return {
    ok: true,
    summary: {
      total: subTotal + salesTax,
      subTotal,
      newSubscription: {
        firstTermDiscount: discount,
        firstTermBasePrice,
        prorateDiscount: prorateAmount,
        recurringBasePrice: recurring ? firstTermBasePrice - (campaignRenews ? discount : 0) : 0,
        firstTermExtraSeatsPrice,
        extraSeatsRecurringPrice: recurring ? firstTermExtraSeatsPrice : 0,
        nonRecurringAddOnsPrice: sumLines(nonRecurring),
      },
      proration: { prorateAmount, currentExtraSeatsPrice: currentSeats, prorateRatio },
      taxRates: [{ type: "COMBINED", taxAmount: salesTax, ratePercent }],
      salesTax,
      lines,
      addition: null,
      coupon: priced?.coupon ?? null,
    },
  };
}

/** The order summary; throws PricingRequestError (with its `code`) when it cannot be priced. */
export function orderSummary(catalog: Catalog, request: OrderSummaryRequest): OrderSummary {
  const result = safeOrderSummary(catalog, request);
  if (!result.ok) throw new PricingRequestError(result.error);
  return result.summary;
}
