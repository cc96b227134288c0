// Pure rules of the purchase screens: which plans the plans screen lists for a billing mode, the
// status of a plan for the account (spec 4: currentPlan and the essentials flags decide it), the
// same plan in the other mode or with the essentials add-on, the seats a plan takes, and why a
// managed account cannot buy (spec 4 and 6). No prices are computed here: they come from the
// server's plan options and order summary, which the pricing module computes.
import { type RequestMode, termForMode } from "../pricing/terms.ts";

/** The fields of a plan option (src/contract/products.ts) these rules read. */
export type PlanLike = {
  code: string;
  name: string;
  tier: string;
  termDuration: number;
  recurring: boolean;
  essentials: boolean;
  isTrial: boolean;
  currentPlan: boolean;
  multiUser: boolean;
  includedSeats: number;
  essentialsUpgrade: { code: string } | null;
  essentialsDowngrade: { code: string } | null;
};

export type PlanStatus = "current" | "current-with-essentials" | "available";

/**
 * The account's relation to a plan card: its current plan, the same plan that it has with the
 * essentials add-on (the card shows the plan without it), or one it may buy.
 */
export function planStatus(plan: PlanLike, currentProductCode: string): PlanStatus {
  if (plan.currentPlan || plan.code === currentProductCode) return "current";
  if (plan.essentialsUpgrade?.code === currentProductCode) return "current-with-essentials";
  return "available";
}

/** The same plan (name, tier, essentials) billed every `termMonths`, if the catalogue has it. */
function sibling<P extends PlanLike>(plans: readonly P[], plan: P, termMonths: number): P | null {
  return (
    plans.find(
      (p) =>
        p.name === plan.name &&
        p.tier === plan.tier &&
        p.essentials === plan.essentials &&
        !p.isTrial &&
        p.termDuration === termMonths,
    ) ?? null
  );
}

/** Whether a plan can be bought monthly and annually (Power, Unlimited, Business, …). */
export function hasBothModes(plans: readonly PlanLike[], plan: PlanLike): boolean {
  return (
    sibling(plans, plan, termForMode("monthly")) !== null &&
    sibling(plans, plan, termForMode("annual")) !== null
  );
}

/**
 * The cards of the plans screen in a mode: no trials, no essentials variants (essentials is an
 * add-on chosen at checkout); plans sold in both modes only in the chosen one, the others (Flex,
 * Teacher, Schools, Free) always.
 */
export function plansForMode<P extends PlanLike>(plans: readonly P[], mode: RequestMode): P[] {
  const term = termForMode(mode);
  return plans.filter(
    (p) => !p.isTrial && !p.essentials && (p.termDuration === term || !hasBothModes(plans, p)),
  );
}

/** The plan to buy for a choice of mode and add-on, starting from the plan in the URL. */
export function planFor<P extends PlanLike>(
  plans: readonly P[],
  plan: P,
  choice: { mode?: RequestMode; essentials?: boolean },
): P {
  let chosen = plan;
  if (choice.mode && hasBothModes(plans, plan)) {
    chosen = sibling(plans, chosen, termForMode(choice.mode)) ?? chosen;
  }
  if (choice.essentials === true && chosen.essentialsUpgrade) {
    chosen = plans.find((p) => p.code === chosen.essentialsUpgrade?.code) ?? chosen;
  } else if (choice.essentials === false && chosen.essentialsDowngrade) {
    chosen = plans.find((p) => p.code === chosen.essentialsDowngrade?.code) ?? chosen;
  }
  return chosen;
}

/** The billing mode of a plan's term, for the monthly / annual switch. */
export function modeOf(plan: Pick<PlanLike, "termDuration">): RequestMode {
  return plan.termDuration === 1 ? "monthly" : "annual";
}

/**
 * Seats a multi-user plan starts at and may not go below: its included seats (Business 3,
 * Schools 30: spec 5's minimum). Null for single-user plans.
 */
export function minimumSeats(plan: Pick<PlanLike, "multiUser" | "includedSeats">): number | null {
  if (!plan.multiUser && plan.includedSeats <= 0) return null;
  return Math.max(1, plan.includedSeats);
}

/** The quote page for orders above the top seat band (spec 2.3: /orders?seats=). */
export function quoteHref(seats: number): string {
  return `/orders?seats=${encodeURIComponent(String(seats))}`;
}

export type ManagedAccount = {
  isUserEnterpriseMember: boolean;
  isEnterpriseAdmin: boolean;
  isPurchaseOrder: boolean;
  isManagedAccount: boolean;
  orderState: string;
};

export type ManagedReason = { why: string; ask: string };

/**
 * Why a managed account cannot buy here and whom to ask (spec 4: enterprise members,
 * purchase-order accounts, pilot and promo orders are managed), or null when it may buy.
 */
export function managedReason(user: ManagedAccount): ManagedReason | null {
  if (user.isUserEnterpriseMember && !user.isEnterpriseAdmin) {
    return {
      why: "Your plan comes with your team's workspace, so your team manages it.",
      ask: "Ask the owner of your team's workspace to change the plan or add seats.",
    };
  }
  if (user.isPurchaseOrder || user.orderState === "purchaseOrder") {
    return {
      why: "Your plan is billed by purchase order, so it cannot be changed by card or PayPal here.",
      ask: "Ask the person who manages your organisation's order, or contact support for a new quote.",
    };
  }
  if (user.orderState === "pilot" || user.orderState === "promo") {
    const kind = user.orderState === "pilot" ? "pilot" : "promotional";
    return {
      why: `Your account is on a ${kind} order that our team set up for you.`,
      ask: "Contact support to change your plan.",
    };
  }
  if (user.isManagedAccount) {
    return {
      why: "Your plan is managed for you, so it cannot be changed here.",
      ask: "Contact support to change your plan.",
    };
  }
  return null;
}
