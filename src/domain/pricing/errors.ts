// The pricing error catalogue (STYLE.md point 4): permanent codes and customer-facing messages that
// say what happened, then what to do. Messages reach customers through the checkout and the
// server, and the pricing team through `catalog quote`; tests pin every wording.
import { formatCount } from "./money.ts";
import { type RequestMode, termAdverb, termForMode } from "./terms.ts";

export type PricingErrorCode =
  | "UNKNOWN_PLAN"
  | "NO_VARIANT"
  | "INVALID_SEATS"
  | "SEATS_BELOW_MINIMUM"
  | "SEATS_ABOVE_MAXIMUM"
  | "SEATS_NOT_PRICED"
  | "EXTRA_SEATS_NOT_SOLD"
  | "UNKNOWN_SEAT_STRUCTURE"
  | "SEAT_STRUCTURE_NOT_FOR_PLAN"
  | "COUPON_UNKNOWN"
  | "COUPON_EXPIRED"
  | "COUPON_NOT_STARTED"
  | "COUPON_NOT_FOR_PLAN"
  | "UNKNOWN_ADD_ON"
  | "ADD_ON_NOT_FOR_PLAN"
  | "INVALID_TIME"
  | "INVALID_CURRENT_SUBSCRIPTION";

export type PricingError = { code: PricingErrorCode; message: string };

export type Result<T> = { ok: true; value: T } | { ok: false; error: PricingError };

/** Thrown only by the throwing variant `orderSummary`; everything else returns results. */
export class PricingRequestError extends Error {
  readonly code: PricingErrorCode;
  constructor(error: PricingError) {
    super(error.message);
    this.name = "PricingRequestError";
    this.code = error.code;
  }
}

const count = (n: number) => (Number.isSafeInteger(n) ? formatCount(n) : String(n));
const seatsWord = (n: number) => `${count(n)} ${n === 1 ? "seat" : "seats"}`;

export const pricingErrors = {
  unknownPlan: (ref: string): PricingError => ({
    code: "UNKNOWN_PLAN",
    message: `Unknown plan '${ref}'.`,
  }),
  noVariant: (planName: string, mode: RequestMode): PricingError => ({
    code: "NO_VARIANT",
    message: `${planName} is not sold ${termAdverb(termForMode(mode))}.`,
  }),
  invalidSeats: (seats: number): PricingError => ({
    code: "INVALID_SEATS",
    message: `The number of seats must be a whole number of at least 1; got ${seats}.`,
  }),
  seatsBelowMinimum: (planName: string, minimum: number, seats: number): PricingError => ({
    code: "SEATS_BELOW_MINIMUM",
    message: `${planName} needs at least ${seatsWord(minimum)}; you asked for ${count(seats)}.`,
  }),
  seatsAboveMaximum: (maximum: number, seats: number): PricingError => ({
    code: "SEATS_ABOVE_MAXIMUM",
    message:
      `Online orders go up to ${seatsWord(maximum)}. ` +
      `For ${seatsWord(seats)}, ask us for a quote at /orders?seats=${seats}.`,
  }),
  seatsNotPriced: (structureName: string, seats: number): PricingError => ({
    code: "SEATS_NOT_PRICED",
    message:
      `No price band of ${structureName} covers ${seatsWord(seats)}. ` +
      `Ask us for a quote at /orders?seats=${seats}.`,
  }),
  extraSeatsNotSold: (planName: string, includedSeats: number, seats: number): PricingError => ({
    code: "EXTRA_SEATS_NOT_SOLD",
    message:
      includedSeats <= 1
        ? `${planName} is for one person and cannot be bought with ${seatsWord(seats)}.`
        : `${planName} includes ${seatsWord(includedSeats)} and extra seats are not sold with it.`,
  }),
  unknownSeatStructure: (id: string): PricingError => ({
    code: "UNKNOWN_SEAT_STRUCTURE",
    message: `Unknown seat structure '${id}'.`,
  }),
  seatStructureNotForPlan: (id: string, planName: string): PricingError => ({
    code: "SEAT_STRUCTURE_NOT_FOR_PLAN",
    message: `Seat structure '${id}' does not price ${planName}.`,
  }),
  couponUnknown: (coupon: string): PricingError => ({
    code: "COUPON_UNKNOWN",
    message: `Coupon '${coupon}' is not valid. Check the spelling, or continue without it.`,
  }),
  couponExpired: (coupon: string): PricingError => ({
    code: "COUPON_EXPIRED",
    message: `Coupon '${coupon}' has expired. Remove it to see the regular price.`,
  }),
  couponNotStarted: (coupon: string): PricingError => ({
    code: "COUPON_NOT_STARTED",
    message: `Coupon '${coupon}' is not active yet. Remove it to see the regular price.`,
  }),
  couponNotForPlan: (coupon: string, planLabel: string): PricingError => ({
    code: "COUPON_NOT_FOR_PLAN",
    message: `Coupon '${coupon}' does not apply to ${planLabel}.`,
  }),
  couponNotApplied: (coupon: string, planLabel: string): PricingError => ({
    code: "COUPON_NOT_FOR_PLAN",
    message: `Coupon '${coupon}' does not apply to ${planLabel}, so it is not applied.`,
  }),
  couponAlreadyRedeemed: (coupon: string): PricingError => ({
    code: "COUPON_NOT_FOR_PLAN",
    message: `Coupon '${coupon}' was already used on this account: its first-term discount applies once.`,
  }),
  couponNotForAddition: (coupon: string): PricingError => ({
    code: "COUPON_NOT_FOR_PLAN",
    message: `Coupon '${coupon}' does not apply to seats or add-ons added to your current period.`,
  }),
  unknownAddOn: (code: string): PricingError => ({
    code: "UNKNOWN_ADD_ON",
    message: `Unknown add-on '${code}'.`,
  }),
  addOnTermMismatch: (addOnLabel: string, planLabel: string): PricingError => ({
    code: "ADD_ON_NOT_FOR_PLAN",
    message: `${addOnLabel} cannot be added to ${planLabel}: they bill on different terms.`,
  }),
  addOnAlreadyIncluded: (addOnName: string, planLabel: string): PricingError => ({
    code: "ADD_ON_NOT_FOR_PLAN",
    message: `${planLabel} already includes ${addOnName}.`,
  }),
  addOnNotSold: (addOnName: string, planLabel: string): PricingError => ({
    code: "ADD_ON_NOT_FOR_PLAN",
    message: `${addOnName} is not sold with ${planLabel}.`,
  }),
  addOnNeedsPlan: (addOnName: string): PricingError => ({
    code: "ADD_ON_NOT_FOR_PLAN",
    message: `${addOnName} can only be bought with a plan.`,
  }),
  addOnTwice: (addOnName: string): PricingError => ({
    code: "ADD_ON_NOT_FOR_PLAN",
    message: `${addOnName} can be added only once.`,
  }),
  invalidTime: (atMs: number): PricingError => ({
    code: "INVALID_TIME",
    message: `The pricing time must be a timestamp in milliseconds; got ${atMs}.`,
  }),
  invalidCurrentSubscription: (): PricingError => ({
    code: "INVALID_CURRENT_SUBSCRIPTION",
    message:
      "The current subscription is invalid: its period must end after it starts, " +
      "and the amount paid must be whole cents of at least 0.",
  }),
};
