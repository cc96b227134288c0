// The account's plan in words, for the account page and the completed page (issue 22 item 1,
// issue 33 items 7 and 9): the plan's name and how it is billed, never its code; for a
// subscription its next renewal, one amount that says whether tax is in it (renewalWords); for a
// one-time product (Flex) the day it runs out, and that nothing renews. Pure, so any layout of
// those pages says the same.

import { type TermMonths, termAdverb, termMonthsFromCode } from "../pricing/terms.ts";
import { renewalWords } from "../renewals/renewal-words.ts";
import { formatDay } from "./format-day.ts";

export type PlanFacts = {
  productCode: string;
  subscriptionName: string;
  TermDurationMonths: number | null;
  orderState: string;
  nextRenewal: { at: number; amount: number; tax: number; termMonths: number } | null;
  /** A one-time product: the day it runs out; null otherwise. */
  validUntil: number | null;
  FreeProduct: string;
  /** Essentials cancelled: `endsAt` is the day it stays until (issue 33, item 8). */
  essentialsInfo?: { hasEssentials: boolean; endsAt: number | null } | undefined;
};

export type PlanWords = {
  /** The plan's name alone, "Unlimited", "Free" (the account page's badge says the rest). */
  name: string;
  /** "Unlimited, billed annually", "Flex, paid once", "Free". */
  plan: string;
  /** "renews automatically", "paid once, does not renew", "cancelled", ... */
  status: string;
  /** The next renewal, "November 25, 2027", and what it charges in words; null when none. */
  renewsOn: string | null;
  /** "$95.88 every year (tax included)". */
  renewalAmount: string | null;
  /** A one-time product's last day, "December 7, 2027"; null otherwise. */
  validUntil: string | null;
  /** "Until March 3, 2026; your plan then renews without it": Essentials cancelled; else null. */
  essentialsUntil: string | null;
};

const STATE_WORDS: Record<string, string> = {
  automatic: "renews automatically",
  trial: "trial",
  cancelled: "cancelled",
  promo: "promotion",
  pilot: "pilot",
  purchaseOrder: "purchase order",
  unknown: "free",
};

/** An order state in words ("renews automatically", "trial", ...), the code when unknown. */
function statusWords(orderState: string): string {
  return STATE_WORDS[orderState] ?? orderState;
}

/** Said of a one-time product instead of "renews automatically". */
const ONE_TIME_STATUS = "paid once, does not renew";

function termOf(months: number): TermMonths {
  return months === 1 || months === 6 ? months : 12;
}

/** The plan in words from the products payload (spec 3.3). */
export function planWords(info: PlanFacts): PlanWords {
  const none = { renewsOn: null, renewalAmount: null, validUntil: null, essentialsUntil: null };
  const status = statusWords(info.orderState);
  if (info.productCode === info.FreeProduct) {
    // Cancelled and run out, or never paid: the free plan either way.
    return {
      name: "Free",
      plan: "Free",
      status: info.orderState === "cancelled" ? status : "free",
      ...none,
    };
  }
  // A name that is still a code (a product the catalogue no longer lists) is not shown as one.
  const name = info.subscriptionName === info.productCode ? "Your plan" : info.subscriptionName;
  if (info.validUntil !== null) {
    return {
      name,
      plan: `${name}, paid once`,
      status: ONE_TIME_STATUS,
      ...none,
      validUntil: formatDay(info.validUntil),
    };
  }
  if (info.orderState !== "automatic") return { name, plan: name, status, ...none };
  const months = info.TermDurationMonths ?? termMonthsFromCode(info.productCode);
  const next = info.nextRenewal;
  const essentialsEnd = info.essentialsInfo?.hasEssentials ? info.essentialsInfo.endsAt : null;
  return {
    name,
    plan: `${name}, billed ${termAdverb(termOf(months))}`,
    status,
    renewsOn: next ? formatDay(next.at) : null,
    renewalAmount: next ? renewalWords(next) : null,
    validUntil: null,
    essentialsUntil:
      essentialsEnd === null
        ? null
        : `Until ${formatDay(essentialsEnd)}; your plan then renews without it`,
  };
}
