// The pricing module's refusals (src/domain/pricing/errors.ts) spelled as the API's error codes:
// one table, so the server's answers, the checkout's messages and `catalog quote --json` name the
// same failure the same way. The pricing codes stay the pricing module's own (its tests and the
// pricing team's vocabulary); whatever crosses a boundary uses the code this table gives.
import type { PricingErrorCode } from "../pricing/errors.ts";
import type { ApiErrorCode } from "./api-errors.ts";

export const PRICING_ERROR_CODES = {
  UNKNOWN_PLAN: "unknown_product",
  NO_VARIANT: "unknown_product",
  INVALID_SEATS: "invalid_seats",
  SEATS_BELOW_MINIMUM: "invalid_seats",
  SEATS_ABOVE_MAXIMUM: "invalid_seats",
  SEATS_NOT_PRICED: "invalid_seats",
  EXTRA_SEATS_NOT_SOLD: "invalid_seats",
  UNKNOWN_SEAT_STRUCTURE: "invalid_seats",
  SEAT_STRUCTURE_NOT_FOR_PLAN: "invalid_seats",
  COUPON_UNKNOWN: "coupon_not_found",
  COUPON_EXPIRED: "coupon_not_active",
  COUPON_NOT_STARTED: "coupon_not_active",
  COUPON_NOT_FOR_PLAN: "coupon_not_applicable",
  UNKNOWN_ADD_ON: "invalid_add_on",
  ADD_ON_NOT_FOR_PLAN: "invalid_add_on",
  // A bad time or current subscription is a bug of the caller, not something a customer did.
  INVALID_TIME: "internal_error",
  INVALID_CURRENT_SUBSCRIPTION: "internal_error",
} as const satisfies Record<PricingErrorCode, ApiErrorCode>;

/** The API code of each pricing refusal. */
export type PricingApiCode = (typeof PRICING_ERROR_CODES)[PricingErrorCode];
