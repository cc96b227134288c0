// When the checkout's seats are past what is sold online (issue 34, item 5): the server refuses
// the summary as invalid_seats, and the page says so in a sentence with the quote link instead of
// showing the refusal (its text names the quote's path) beside a "Try again" that cannot help.

/** The seats to quote for, or null when the refusal is something else. */
export function seatsToQuote(facts: {
  /** The summary's refusal code, if it failed. */
  errorCode: string | null | undefined;
  /** A problem the seats field found itself (below the minimum, not a number). */
  fieldProblem: string | null;
  seats: number | undefined;
  minimum: number | null;
}): number | null {
  const { errorCode, fieldProblem, seats, minimum } = facts;
  if (errorCode !== "invalid_seats" || fieldProblem !== null) return null;
  if (seats === undefined || minimum === null || seats <= minimum) return null;
  return seats;
}
