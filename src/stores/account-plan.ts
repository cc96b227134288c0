// The account's plan as the account page says it (issue 22, item 1): the plan's name and how it
// is billed ("Unlimited, billed annually"), never its code; and the next renewal's date and
// amount when the subscription renews.
import { computed } from "nanostores";
import type { ProductsPayload } from "../contract/products.ts";
import { formatDay } from "../domain/account/cancellation.ts";
import { formatUsd } from "../domain/pricing/money.ts";
import { termAdverb, termMonthsFromCode } from "../domain/pricing/terms.ts";
import { $productInfo } from "./products.ts";

export type AccountPlan = {
  /** The plan's name alone, "Unlimited", "Free" (a badge says "Member of Acme's Business plan"). */
  name: string;
  /** "Unlimited, billed annually", "Free", "Unlimited trial". */
  plan: string;
  /** The next renewal, "November 25, 2027", and what it charges, "$95.88"; null when none. */
  renewsOn: string | null;
  renewalAmount: string | null;
};

type PlanFacts = Pick<
  ProductsPayload,
  | "productCode"
  | "subscriptionName"
  | "TermDurationMonths"
  | "orderState"
  | "nextBillingDate"
  | "nextBillingAmount"
  | "FreeProduct"
>;

/** The plan in words from the products payload (spec 3.3). */
export function accountPlan(info: PlanFacts): AccountPlan {
  const none = { renewsOn: null, renewalAmount: null };
  if (info.productCode === info.FreeProduct) return { name: "Free", plan: "Free", ...none };
  // A name that is still a code (a product the catalogue no longer lists) is not shown as one.
  const name = info.subscriptionName === info.productCode ? "Your plan" : info.subscriptionName;
  if (info.orderState !== "automatic") return { name, plan: name, ...none };
  const months = info.TermDurationMonths ?? termMonthsFromCode(info.productCode);
  const term = months === 1 || months === 6 || months === 12 ? months : 12;
  return {
    name,
    plan: `${name}, billed ${termAdverb(term)}`,
    renewsOn: formatDay(info.nextBillingDate),
    renewalAmount: info.nextBillingAmount === null ? null : formatUsd(info.nextBillingAmount),
  };
}

export const $accountPlan = computed($productInfo, (info) => (info ? accountPlan(info) : null));
