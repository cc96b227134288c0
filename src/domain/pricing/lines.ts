// Priced lines: what a quote or an order summary charges, one figure per line, so that a page can
// list them and a test can check that they add up to the total.
import { formatCount, formatUsd } from "./money.ts";
import { type TermMonths, termLabel } from "./terms.ts";

export type LineKind = "plan" | "essentials" | "extraSeats" | "discount" | "proration" | "addOn";

/** One priced line; discounts and credits are negative amounts in cents. */
export type PriceLine = { kind: LineKind; label: string; amount: number };

export function sumLines(lines: readonly PriceLine[]): number {
  return lines.reduce((sum, line) => sum + line.amount, 0);
}

export function extraSeatsLabel(extraSeats: number, seatPrice: number): string {
  return `${formatCount(extraSeats)} extra ${extraSeats === 1 ? "seat" : "seats"} × ${formatUsd(seatPrice)}`;
}

/** "Black Friday discount (first year)" or "(every year)" for a recurring campaign. */
export function discountLabel(campaignName: string, recurring: boolean, term: TermMonths): string {
  return `${campaignName} discount (${recurring ? "every" : "first"} ${termLabel(term)})`;
}
