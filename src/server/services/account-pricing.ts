// The order summary of an account: the pricing module's orderSummary with the account's current
// subscription (for proration), its location (for tax), price set and coupon. The upgrade call
// charges exactly this summary's total. Named AccountPricing, not Quote: a Quote is the pricing
// module's (domain/pricing/quote.ts), and a school's seat-band quote is the quote page's.

import {
  classifyPlanChange,
  type PlanChangeKind,
  seatsInUseShortfall,
} from "../../domain/account/plan-change.ts";
import { addMonthsClamped } from "../../domain/calendar/index.ts";
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import { US_STATES } from "../../domain/checkout/regions.ts";
import { usAddressProblem } from "../../domain/checkout/zip-states.ts";
import { API_ERRORS, type ApiError, apiError } from "../../domain/errors/api-errors.ts";
import { PRICING_ERROR_CODES, type PricingApiCode } from "../../domain/errors/pricing-codes.ts";
import {
  type CurrentSubscription,
  type OrderSummary,
  type PricingError,
  periodValue,
  quote,
  resultingProduct,
  safeOrderSummary,
  unusedCredit,
} from "../../domain/pricing/index.ts";
import {
  currentPriceBasis,
  type NextRenewal,
  nextRenewal,
  recurringCampaignOf,
} from "../../domain/renewals/index.ts";
import type { Account } from "./account.ts";
import { taxLocationFor } from "./invoices.ts";

export type AccountPricingInput = {
  targetProduct: string;
  seats?: number | undefined;
  addOns?: readonly string[] | undefined;
  coupon?: string | undefined;
  /** The seller's country (SELLER_COUNTRY): an EU business elsewhere in the EU pays no VAT. */
  sellerCountry: string;
};

export type ProductKind = "plan" | "one_off";

/** Whether a code names something that can be bought, and what. */
export function productKind(catalog: Catalog, code: string): ProductKind | null {
  if (catalog.plans.some((p) => p.code === code)) return "plan";
  if ([...catalog.singleExports, ...catalog.exportUpgrades].some((e) => e.code === code))
    return "one_off";
  return null;
}

/**
 * The API error for a pricing refusal, keeping the pricing module's customer-facing message; the
 * code comes from the one table of src/domain/errors/pricing-codes.ts. A refusal that means a
 * bug (a bad time or subscription) answers the catalogue's internal error, message included.
 */
export function pricingError(error: PricingError): ApiError<PricingApiCode> {
  const code = PRICING_ERROR_CODES[error.code];
  if (code === "internal_error") return apiError("internal_error");
  return { status: API_ERRORS[code].status, body: { message: error.message, error_code: code } };
}

/** Every code an account's pricing can be refused with. */
export type PricingRefusalCode =
  | PricingApiCode
  | "invalid_request"
  | "unknown_product"
  | "seats_in_use"
  | "already_subscribed";

/** The paid period being replaced, when the account has one that is still running. */
export function currentSubscription(
  account: Account,
  catalog: Catalog,
): CurrentSubscription | null {
  const { sub } = account;
  if (account.isMember) return null;
  if (!catalog.plans.some((p) => p.code === sub.productCode)) return null;
  if (sub.orderStart === null || sub.orderEnd === null || sub.paidCents <= 0) return null;
  if (sub.orderEnd <= account.now || sub.orderEnd <= sub.orderStart) return null;
  if (account.orderState !== "automatic" && account.orderState !== "cancelled") return null;
  return {
    planCode: sub.productCode,
    seats: sub.seats,
    periodStart: sub.orderStart,
    periodEnd: sub.orderEnd,
    paidCents: sub.paidCents,
  };
}

/**
 * A saved US billing address without its state, or with one its ZIP code disagrees with, prices
 * nothing (issue 33, item 6): its sales tax is unknown. Such a row predates the address check of
 * the address call; the answer names the field to fix, as that call's would.
 */
function addressError(account: Account): ApiError<"invalid_request"> | null {
  const { address, stateCode } = account.user;
  if (address?.country !== "US") return null;
  const problem = usAddressProblem(
    { state: stateCode, postalCode: address.postalCode },
    (code) => US_STATES[code] ?? code,
  );
  if (problem === null) return null;
  const error = apiError("invalid_request", problem.field);
  return {
    ...error,
    body: { ...error.body, fields: [{ path: problem.field, message: problem.message }] },
  };
}

export type AccountPricing = {
  summary: OrderSummary;
  kind: ProductKind;
  seats: number;
  coupon: string | null;
  /**
   * What the purchase does to the running subscription (domain/account/plan-change.ts), or an
   * addition to its period (the pricing module's `summary.addition`).
   */
  change: PlanChangeKind | "addition";
  /** When the new term starts and `summary.total` is charged: null for now, else the period end. */
  startsAt: number | null;
};

export function priceForAccount(
  catalog: Catalog,
  account: Account,
  input: AccountPricingInput,
): { ok: true; pricing: AccountPricing } | { ok: false; error: ApiError<PricingRefusalCode> } {
  const kind = productKind(catalog, input.targetProduct);
  if (kind === null) return { ok: false, error: apiError("unknown_product", input.targetProduct) };
  const address = addressError(account);
  if (address !== null) return { ok: false, error: address };
  const coupon = input.coupon?.trim() || account.user.appliedCoupon || null;
  // The invoices' tax rule (domain/invoices/tax-treatment.ts): null under reverse charge.
  const tax = taxLocationFor(
    { seller: { country: input.sellerCountry } },
    account.user,
    account.billing,
  );
  const current = kind === "plan" ? currentSubscription(account, catalog) : null;
  const summarise = (withCurrent: typeof current) =>
    safeOrderSummary(catalog, {
      targetProduct: input.targetProduct,
      seats: input.seats,
      addOns: input.addOns,
      atMs: account.now,
      coupon: coupon ?? undefined,
      priceChoice: account.priceChoice,
      current: withCurrent,
      tax,
      redeemedCoupons: account.redeemedCoupons,
    });
  let result = summarise(current);
  if (!result.ok) return { ok: false, error: pricingError(result.error) };
  let seats = input.seats ?? 1;
  if (kind === "plan" && input.seats === undefined) {
    // The pricing module picks the default seat count (the plan's minimum); ask it which.
    const priced = quote(catalog, {
      plan: input.targetProduct,
      atMs: account.now,
      coupon: coupon ?? undefined,
    });
    if (priced.ok) seats = priced.quote.seats;
  }
  let change: PlanChangeKind | "addition" = "new";
  let startsAt: number | null = null;
  const plan = kind === "plan" ? catalog.plans.find((p) => p.code === input.targetProduct) : null;
  if (plan) {
    const shortfall = account.isOwner
      ? seatsInUseShortfall({
          // Invitations to an address hold seats too (issue 18 item 3).
          usedSeats: account.heldSeats,
          targetMultiUser: plan.multiUser,
          targetSeats: seats,
        })
      : null;
    if (shortfall) return { ok: false, error: apiError("seats_in_use", shortfall.needed) };
    if (result.summary.addition !== null) {
      // Seats or essentials for the rest of the running period: it renews on its own date.
      return {
        ok: true,
        pricing: {
          summary: result.summary,
          kind,
          seats,
          coupon,
          change: "addition",
          startsAt: null,
        },
      };
    }
    change = classifyPlanChange({
      current: current && {
        productCode: current.planCode,
        seats: current.seats,
        creditCents: unusedCredit(current, account.now),
      },
      target: {
        productCode: resultingProduct(catalog, plan, input.addOns ?? []),
        seats,
        firstTermCents: periodValue(result.summary),
      },
    });
    if (change === "same") {
      // Buying again what runs is pointless; a cancelled subscription may be resumed that way.
      if (account.orderState === "automatic")
        return { ok: false, error: apiError("already_subscribed") };
      change = "upgrade";
    }
    if (change === "downgrade" && current) {
      // Nothing overlaps: the new term starts when the paid one ends, at its full price.
      result = summarise(null);
      if (!result.ok) return { ok: false, error: pricingError(result.error) };
      startsAt = current.periodEnd;
    }
  }
  return { ok: true, pricing: { summary: result.summary, kind, seats, coupon, change, startsAt } };
}

/**
 * The next renewal once `pricing` is bought (issue 33, item 9): priced by nextRenewal with what
 * the purchase records (services/orders.ts), so the summary names the amount the account page,
 * the completed page and the renewal charge name. Null for what does not renew.
 */
export function renewalAfter(
  catalog: Catalog,
  account: Account,
  pricing: AccountPricing,
  input: { targetProduct: string; addOns?: readonly string[] | undefined; sellerCountry: string },
): NextRenewal | null {
  const plan = catalog.plans.find((p) => p.code === input.targetProduct);
  if (pricing.kind !== "plan" || plan === undefined || !plan.recurring) return null;
  const { sub, user } = account;
  const productCode = resultingProduct(catalog, plan, input.addOns ?? []);
  const months = plan.validMonths ?? plan.termDuration;
  const now = account.now;
  const addition = pricing.summary.addition;
  const { priceChoice } = account;
  const start = pricing.startsAt ?? now;
  return nextRenewal(catalog, {
    productCode,
    orderState: "automatic",
    seats: pricing.seats,
    orderEnd: addition ? addition.periodEnd : addMonthsClamped(start, months),
    pendingProductCode: null,
    pendingSeats: null,
    priceChoice,
    recurringCampaign: addition
      ? sub.recurringCampaign
      : pricing.startsAt === null
        ? recurringCampaignOf(catalog, { productCode, atMs: now, coupon: pricing.coupon })
        : null,
    priceBasis:
      addition && productCode === sub.productCode && sub.priceBasis
        ? sub.priceBasis
        : currentPriceBasis(catalog, productCode, { priceChoice, atMs: now }),
    tax: taxLocationFor({ seller: { country: input.sellerCountry } }, user, account.billing),
  });
}
