// The next renewal's amount in words (issue 33, item 9), apart from its computation
// (next-renewal.ts) so that screens can say it without loading the pricing of renewals.
import { formatUsd } from "../pricing/money.ts";
import { type TermMonths, termLabel } from "../pricing/terms.ts";

function termOf(months: number): TermMonths {
  return months === 1 || months === 6 ? months : 12;
}

/**
 * The renewal amount as every screen and e-mail says it: "$1,505.15 every year (tax included)",
 * or "(no tax)" when none is charged, so the reader never wonders which figure it is; with the
 * day it starts when given ("$95.88 every year from December 7, 2027 (no tax)").
 */
export function renewalWords(
  renewal: { amount: number; tax: number; termMonths: number },
  from?: string,
): string {
  const taxWords = renewal.tax > 0 ? "tax included" : "no tax";
  const since = from === undefined ? "" : ` from ${from}`;
  return `${formatUsd(renewal.amount)} every ${termLabel(termOf(renewal.termMonths))}${since} (${taxWords})`;
}
