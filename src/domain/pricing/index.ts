// The pricing module: every figure that pages, checkout, server and `catalog quote` show, charge
// or check (ARCHITECTURE.md "Money"). Pure functions over the typed catalogue; amounts in cents.
export { basePriceWithoutAddOns } from "./base-price.ts";
export {
  type AppliedCampaign,
  activeCampaigns,
  type CampaignContext,
  campaignDiscount,
  campaignFor,
  couponMatches,
  couponProblem,
  isCampaignActive,
} from "./campaigns.ts";
export {
  type PricingError,
  type PricingErrorCode,
  PricingRequestError,
  pricingErrors,
  type Result,
} from "./errors.ts";
export { type LineKind, type PriceLine, sumLines } from "./lines.ts";
export {
  divRoundHalfUp,
  formatCount,
  formatPrice,
  formatUsd,
  mulDivRoundHalfUp,
  toCents,
} from "./money.ts";
export {
  type CurrentSubscription,
  type OrderSummary,
  type OrderSummaryRequest,
  type OrderSummaryResult,
  orderSummary,
  safeOrderSummary,
  unusedCredit,
} from "./order-summary.ts";
export {
  filterPlans,
  type PlanFilter,
  type ResolutionFilter,
  resolutionAllows,
} from "./plan-filters.ts";
export { type PlanPricing, pricePlan } from "./plan-pricing.ts";
export { type PremiumTemplatesLine, premiumTemplatesLine } from "./premium-templates.ts";
export { planPrice, priceSetForGroup, resolvePriceSet } from "./price-sets.ts";
export { type Quote, type QuoteRequest, type QuoteResult, quote } from "./quote.ts";
export { planLabel, resolvePlan } from "./resolve-plan.ts";
export { periodValue, resultingProduct } from "./resulting-product.ts";
export { savingsPercent } from "./savings.ts";
export {
  extraSeatCount,
  type SeatBandResult,
  seatBandTops,
  seatBandTotal,
  seatStructureFor,
} from "./seats.ts";
export { type TaxLocation, taxAmount, taxName, taxRatePercent } from "./tax.ts";
export {
  extraSeatMonthlyPrice,
  type Mode,
  modeForTerm,
  monthlyPrice,
  type RequestMode,
  type TermMonths,
  termAdverb,
  termForMode,
  termLabel,
  termMonthsFromCode,
} from "./terms.ts";
