// The retry schedule of a renewal whose charge failed (docs/decisions/0015): three tries over seven
// days, on the renewal date (day 0), day 3 and day 7, each counted from the renewal date, not from
// the previous try. Each failed try e-mails the customer; after the third the subscription lapses.
// A try that succeeds renews the subscription for the period it was due for (the anchor does not
// move: a late payment does not shift the billing day).

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days after the renewal date on which the charge is tried. */
export const RENEWAL_ATTEMPT_DAYS: readonly number[] = [0, 3, 7];

/** When try number `attemptsMade + 1` is due, or null when the tries are used up (lapse). */
export function nextAttemptAt(renewalDate: number, attemptsMade: number): number | null {
  const days = RENEWAL_ATTEMPT_DAYS[attemptsMade];
  return days === undefined ? null : renewalDate + days * DAY_MS;
}
