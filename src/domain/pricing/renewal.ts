// What a subscription bought now renews at after its first term, and from when: the checkout's
// "then $95.88 every year from December 7, 2027" (issue 34, item 2). The amount is the summary's
// own recurring figures (the base price, essentials included, and the extra seats), so the line
// says what the server quoted; the date is the first term counted from the purchase, as the
// server anchors a new period (../calendar/months.ts).
import { addMonthsClamped } from "../calendar/index.ts";
import { type TermMonths, termMonthsFromCode } from "./terms.ts";

/** The parts of an order summary (spec 3.5) that decide the renewal. */
export type RenewalSource = {
  productCode: string;
  /** new, upgrade, downgrade or addition (contract/products.ts). */
  change: string;
  newSubscription: { recurringBasePrice: number; extraSeatsRecurringPrice: number };
};

export type Renewal = { amount: number; atMs: number; termMonths: TermMonths };

/**
 * The renewal a purchase starts at `atMs`, or null when it starts none: a one-off (not
 * recurring), a downgrade (it changes the running subscription at its end) or an addition (the
 * running subscription renews as before, on its own date).
 */
export function renewalAfter(
  summary: RenewalSource,
  recurring: boolean,
  atMs: number,
): Renewal | null {
  if (!recurring || (summary.change !== "new" && summary.change !== "upgrade")) return null;
  const termMonths = termMonthsFromCode(summary.productCode);
  const { recurringBasePrice, extraSeatsRecurringPrice } = summary.newSubscription;
  return {
    amount: recurringBasePrice + extraSeatsRecurringPrice,
    atMs: addMonthsClamped(atMs, termMonths),
    termMonths,
  };
}
