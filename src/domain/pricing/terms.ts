// Terms and billing modes (spec section 9): a plan bills every 1, 6 or 12 months.
import { divRoundHalfUp } from "./money.ts";

export type TermMonths = 1 | 6 | 12;
/** The billing modes a customer picks between on the plans page. */
export type RequestMode = "monthly" | "annual";
/** The mode of a term; 6-month plans (wv_k12_6m) are semi-annual. */
export type Mode = RequestMode | "semi-annual";

const LABELS = { 1: "month", 6: "6 months", 12: "year" } as const;
const ADVERBS = { 1: "monthly", 6: "semi-annually", 12: "annually" } as const;
const MODES = { 1: "monthly", 6: "semi-annual", 12: "annual" } as const;

/** 6 for codes ending _6m, 1 for monthly codes (ending _1m), otherwise 12. */
export function termMonthsFromCode(code: string): TermMonths {
  if (code.endsWith("_6m")) return 6;
  if (code.endsWith("_1m")) return 1;
  return 12;
}

/** "month" | "6 months" | "year", as in "9.99 / month". */
export function termLabel(months: TermMonths): (typeof LABELS)[TermMonths] {
  return LABELS[months];
}

/** "monthly" | "semi-annually" | "annually", as in "billed annually". */
export function termAdverb(months: TermMonths): (typeof ADVERBS)[TermMonths] {
  return ADVERBS[months];
}

export function modeForTerm(months: TermMonths): Mode {
  return MODES[months];
}

export function termForMode(mode: RequestMode): TermMonths {
  return mode === "monthly" ? 1 : 12;
}

function assertPrice(cents: number, what: string): void {
  if (!Number.isSafeInteger(cents) || cents < 0) {
    throw new RangeError(`${what} must be integer cents of at least 0; got ${cents}.`);
  }
}

/** Price of the term per month: price / term months, rounded half up to the cent (5988, 12 → 499). */
export function monthlyPrice(priceCents: number, termMonths: TermMonths): number {
  assertPrice(priceCents, "A price");
  return divRoundHalfUp(priceCents, termMonths);
}

/**
 * One extra seat per month: seat price / term months, rounded like monthlyPrice. The -1 of
 * `plan.seatPrice` means "no extra seats"; check `seatPrice >= 0` first, as it throws here.
 */
export function extraSeatMonthlyPrice(seatPriceCents: number, termMonths: TermMonths): number {
  assertPrice(seatPriceCents, "A seat price");
  return divRoundHalfUp(seatPriceCents, termMonths);
}
