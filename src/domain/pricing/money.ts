// Money is integer cents everywhere in the domain (ARCHITECTURE.md "Money"); it becomes text only
// at the edge, through formatPrice and formatUsd. Formatting is done by hand rather than with Intl
// so that the output never depends on the ICU data or locale of the machine that renders a page.

function assertCents(cents: number): void {
  if (!Number.isSafeInteger(cents)) {
    throw new RangeError(`Amounts are integer cents; got ${cents}.`);
  }
}

/** Dollars to integer cents, exact for any amount written with at most two decimals. */
export function toCents(dollars: number): number {
  if (!Number.isFinite(dollars)) throw new RangeError(`Not a finite amount: ${dollars}.`);
  // 9.99 * 100 is 998.9999999999999: rounding removes the binary error, which is far below half
  // a cent for any amount with at most two decimals. Rounding the magnitude keeps it symmetric.
  const cents = Math.round(Math.abs(dollars) * 100);
  return dollars < 0 && cents !== 0 ? -cents : cents;
}

function groupThousands(whole: number): string {
  return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** 123456 → "1,234.56": two decimals, comma thousands separators, no currency sign. */
export function formatPrice(cents: number): string {
  assertCents(cents);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${groupThousands(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, "0")}`;
}

/** A whole count with thousands separators: 50000 → "50,000" (seat counts in messages). */
export function formatCount(n: number): string {
  assertCents(n);
  return n < 0 ? `-${groupThousands(-n)}` : groupThousands(n);
}

/** 123456 → "$1,234.56"; negative amounts read "-$1,234.56". */
export function formatUsd(cents: number): string {
  assertCents(cents);
  return cents < 0 ? `-$${formatPrice(-cents)}` : `$${formatPrice(cents)}`;
}

/**
 * numerator / denominator rounded half up (towards +∞ on a tie), for integers. Every rounding of
 * money in this module goes through here or mulDivRoundHalfUp, so there is one rule to know.
 */
export function divRoundHalfUp(numerator: number, denominator: number): number {
  return mulDivRoundHalfUp(numerator, 1, denominator);
}

/**
 * a × b / c rounded half up, computed exactly with BigInt: a price times a span of milliseconds
 * overflows the 2^53 integers that a double holds exactly.
 */
export function mulDivRoundHalfUp(a: number, b: number, c: number): number {
  for (const n of [a, b, c]) {
    if (!Number.isSafeInteger(n)) throw new RangeError(`Expected a safe integer; got ${n}.`);
  }
  if (c <= 0) throw new RangeError(`Expected a positive divisor; got ${c}.`);
  const product = BigInt(a) * BigInt(b);
  const divisor = BigInt(c);
  // BigInt division truncates towards zero; step to the floor, then round the remainder.
  let quotient = product / divisor;
  let remainder = product % divisor;
  if (remainder < 0n) {
    quotient -= 1n;
    remainder += divisor;
  }
  if (2n * remainder >= divisor) quotient += 1n;
  return Number(quotient);
}
