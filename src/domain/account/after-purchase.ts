// What the completed page says of what comes next (issue 33, items 7 and 9), in the account
// page's words (plan-words.ts) but apart from them: this screen loads before the payment step,
// where every byte counts (e2e/cart/budgets.spec.ts).
import { renewalWords } from "../renewals/renewal-words.ts";
import { formatDay } from "./format-day.ts";
import type { PlanFacts } from "./plan-words.ts";

/**
 * The next renewal of a subscription, with its tax, or that a one-time purchase is valid until a
 * day and renews never; null when there is nothing to say.
 */
export function afterPurchaseNote(
  info: Pick<PlanFacts, "orderState" | "nextRenewal" | "validUntil">,
): string | null {
  if (info.validUntil !== null) {
    return `Paid once: valid until ${formatDay(info.validUntil)}. It does not renew and nothing more is charged.`;
  }
  const next = info.orderState === "automatic" ? info.nextRenewal : null;
  if (next === null) return null;
  return `Next renewal: ${formatDay(next.at)}, ${renewalWords(next)}. Cancel any time from your account.`;
}
