// Calendar months in UTC, for order periods. A month is not a fixed number of days, and the
// plain Date arithmetic of setUTCMonth overflows (31 January plus one month is 3 March), so the
// counting is date-fns' addMonths, which clamps to the target month's last day, run on
// @date-fns/utc's UTCDate (a Date whose local-time methods are UTC's, so the months count the
// same in any time zone).
//
// Billing periods are anchored: period n ends (n + 1) terms after the anchor, always counted from
// the anchor. Counting from the previous period's end would drift, because a clamped day never
// comes back: 31 January, 29 February, 29 March, … instead of 31 January, 29 February, 31 March.
import { UTCDate } from "@date-fns/utc";
import { addMonths } from "date-fns";

function checkInstant(ms: number, name: string): void {
  if (!Number.isSafeInteger(ms) || Number.isNaN(new Date(ms).getTime())) {
    throw new RangeError(`${name} must be a millisecond timestamp; got ${ms}.`);
  }
}

function checkInteger(value: number, name: string, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    const floor = min === Number.MIN_SAFE_INTEGER ? "" : ` of at least ${min}`;
    throw new RangeError(`${name} must be an integer${floor}; got ${value}.`);
  }
}

/**
 * The instant `months` calendar months after `ms` (before it when negative), in UTC: the same
 * time of day, on the same day of the month, or on the month's last day when the month is
 * shorter (31 January + 1 month = 28 or 29 February).
 */
export function addMonthsClamped(ms: number, months: number): number {
  checkInstant(ms, "The instant");
  checkInteger(months, "The number of months", Number.MIN_SAFE_INTEGER);
  const result = addMonths(new UTCDate(ms), months).getTime();
  if (Number.isNaN(result)) {
    throw new RangeError(`${months} months from ${ms} is outside the dates JavaScript can hold.`);
  }
  return result;
}

export type PeriodBounds = { start: number; end: number };

/**
 * When billing period `periodIndex` (0 for the first) of a subscription that started at `anchorMs`
 * ends: (periodIndex + 1) × termMonths months after the anchor, so the anchor's day comes back
 * whenever the month has it.
 */
export function periodEnd(anchorMs: number, periodIndex: number, termMonths: number): number {
  checkInteger(periodIndex, "The period index", 0);
  checkInteger(termMonths, "The term in months", 1);
  return addMonthsClamped(anchorMs, (periodIndex + 1) * termMonths);
}

/** Billing period `periodIndex`: it starts where the one before ends (the anchor for the first). */
export function periodBounds(
  anchorMs: number,
  periodIndex: number,
  termMonths: number,
): PeriodBounds {
  const end = periodEnd(anchorMs, periodIndex, termMonths);
  const start = periodIndex === 0 ? anchorMs : periodEnd(anchorMs, periodIndex - 1, termMonths);
  return { start, end };
}
