// The account page's plan card (issue 34, item 3): one status badge and the one next step that
// fits the account, from the facts the app already has. Pure; the words of a badge are the
// product's (spec and issue 34), the server decides what each state really allows.
import { formatDay } from "./cancellation.ts";

export type PlanCardFacts = {
  productCode: string;
  freeProduct: string;
  /** The plan's name as the catalogue says it ("Business"), never a code. */
  planName: string;
  orderState: string;
  orderEndDate: number | null;
  isTrial: boolean;
  remainingTrialDays: number | null;
  isExpired: boolean;
  /** A member of a team who does not own it: the owner's plan is theirs. */
  isMember: boolean;
  teamName: string | null;
  itunesSubscription: boolean;
  androidSubscription: boolean;
  /** True when the account's plan is managed by someone else (a school, a purchase order). */
  isManaged: boolean;
  /** A one-time product (Flex): paid once, valid until a day, nothing renews (issue 33 item 7). */
  oneTime?: boolean;
};

export type PlanCard = {
  /** The badge's words: "Active", "Trial, 9 days left", "Cancels on March 3, 2027", … */
  badge: string;
  /** Its look: good news, a warning, or neutral information. */
  tone: "success" | "warning" | "danger" | "info";
  /**
   * The one next step that fits, each a way to the plans (a cancelled plan is renewed by choosing
   * it again); null when the plan is changed elsewhere (the team's owner, an app store, a school).
   */
  action: "Change plan" | "Renew" | "Buy again" | "Choose a plan" | null;
};

function daysLeft(days: number | null): string {
  if (days === null) return "Trial";
  return `Trial, ${days} ${days === 1 ? "day" : "days"} left`;
}

export function planCard(f: PlanCardFacts): PlanCard {
  const store = f.itunesSubscription
    ? "the App Store"
    : f.androidSubscription
      ? "Google Play"
      : null;
  if (store) return { badge: `Managed in ${store}`, tone: "info", action: null };
  if (f.isMember) {
    const team = f.teamName ? `${f.teamName}'s` : "your team's";
    return { badge: `Member of ${team} ${f.planName} plan`, tone: "info", action: null };
  }
  const free = f.productCode === f.freeProduct;
  // The free plan never ends: an account back on it reads Active, whatever its last order was.
  if (f.isExpired && !free) {
    return { badge: "Expired", tone: "danger", action: "Buy again" };
  }
  if (f.isTrial) {
    return {
      badge: daysLeft(f.remainingTrialDays),
      tone: "info",
      action: "Choose a plan",
    };
  }
  const end = formatDay(f.orderEndDate);
  if (!free && f.oneTime) {
    return { badge: "Paid once, does not renew", tone: "info", action: "Change plan" };
  }
  if (!free && f.orderState === "cancelled" && end) {
    return { badge: `Cancels on ${end}`, tone: "warning", action: "Renew" };
  }
  return {
    badge: "Active",
    tone: "success",
    action: f.isManaged ? null : "Change plan",
  };
}
