// What an account may use (plan, seats, features, exports, add-ons), computed in one place from
// what is paid now (issue 18, item 1; ARCHITECTURE.md "Entitlements"). An account uses its own
// subscription, or, as an approved member of a team workspace, what the team's owner pays for the
// team now. Nothing is copied from the team to its members: every read goes through
// `entitlementsOf`, so every way a team loses its plan (trial expiry or cancel, a scheduled switch
// to a one-person plan, a lapse after dunning, a refund or dispute that ends the owner's
// subscription, convert to free) changes every member at once, and a new member joins on what the
// team has now.
//
// Pure: the facts and the time come in as parameters.
import type { PlanEntry } from "../catalog/catalog-schema.ts";
import { effectiveOrderState, parseOrderState } from "./order-state.ts";
import { FREE_PRODUCT } from "./tier.ts";

/** A subscription as the entitlement rules read it (the server's subscriptions row). */
export type PaidFacts = {
  productCode: string;
  orderState: string;
  covidPromotion: boolean;
  /** End of the period paid for (or of the trial); null when none. */
  orderEnd: number | null;
  /** The subscription has ended (lapsed, cancelled and run out, refunded, disputed). */
  expired: boolean;
  seats: number;
  /** A downgrade scheduled for the period end (plan-change.ts), with its seats and date. */
  pendingProductCode: string | null;
  pendingSeats: number | null;
  pendingAt: number | null;
  exportCredits: number;
};

/** The product and seats a subscription pays for at `now`, or null when it pays for nothing. */
export type Paid = { productCode: string; seats: number };

/**
 * What a subscription pays for now:
 * - an ended (expired) subscription and the free plan pay for nothing;
 * - an automatic subscription pays for its product (during the retries of a refused renewal too:
 *   the renewal worker ends it when the last retry fails); a scheduled downgrade counts from its
 *   date, the end of the period that paid for the old product;
 * - a trial, a cancelled subscription, a pilot or promotion order until its end date;
 * - a purchase order until its end date, or for as long as it runs when it has none;
 * - anything else (unknown) pays for nothing.
 */
export function paidNow(facts: PaidFacts, now: number): Paid | null {
  if (facts.expired || facts.productCode === FREE_PRODUCT) return null;
  const state = effectiveOrderState(parseOrderState(facts.orderState), facts.covidPromotion);
  const running = facts.orderEnd !== null && facts.orderEnd > now;
  switch (state) {
    case "automatic": {
      const due = facts.pendingProductCode !== null && (facts.pendingAt ?? now) <= now;
      if (!due) return { productCode: facts.productCode, seats: facts.seats };
      const code = facts.pendingProductCode as string;
      if (code === FREE_PRODUCT) return null;
      return { productCode: code, seats: facts.pendingSeats ?? facts.seats };
    }
    case "trial":
    case "cancelled":
    case "pilot":
    case "promo":
      return running ? { productCode: facts.productCode, seats: facts.seats } : null;
    case "purchaseOrder":
      return running || facts.orderEnd === null
        ? { productCode: facts.productCode, seats: facts.seats }
        : null;
    default:
      return null;
  }
}

/** What a team workspace has now: its owner's paid team plan and its seats. */
export type TeamPaid = {
  /** The team plan paid for now, or null when the owner pays for no team plan. */
  productCode: string | null;
  /** The seats the team may fill (its owner included): 0 when nothing is paid. */
  seats: number;
};

/**
 * A team has what its owner pays for now, when that is a team (multi-user) plan; a team whose
 * owner pays for nothing, or for a one-person plan, has no plan and no seats.
 */
export function teamPaidNow(
  owner: PaidFacts | null,
  plans: readonly PlanEntry[],
  now: number,
): TeamPaid {
  const paid = owner ? paidNow(owner, now) : null;
  const plan = paid ? plans.find((p) => p.code === paid.productCode) : undefined;
  if (!paid || !plan?.multiUser) return { productCode: null, seats: 0 };
  return { productCode: paid.productCode, seats: Math.max(1, paid.seats) };
}

/**
 * The seats a team may fill by new joins (issue 18 item 3,
 * docs/decisions/0027-seat-reductions.md): what it has now, and no more than a scheduled change
 * will leave it (a seat reduction, or a switch to a one-person plan: the owner's seat only), so
 * that nobody joins onto a seat that is not paid for after the renewal.
 */
export function joinableSeats(
  owner: PaidFacts | null,
  plans: readonly PlanEntry[],
  now: number,
): number {
  const team = teamPaidNow(owner, plans, now);
  if (team.productCode === null || owner === null) return 0;
  const pending = owner.pendingProductCode;
  if (pending === null || (owner.pendingAt ?? now) <= now) return team.seats;
  const scheduled = plans.find((p) => p.code === pending);
  const scheduledSeats = scheduled?.multiUser ? (owner.pendingSeats ?? team.seats) : 1;
  return Math.min(team.seats, scheduledSeats);
}

export type EntitlementInput = {
  own: PaidFacts;
  /** The team of an approved member who is not its owner (the owner uses `own`); else null. */
  team: { owner: PaidFacts | null } | null;
  plans: readonly PlanEntry[];
  now: number;
};

export type Resolution = PlanEntry["maxPublishResolution"];

export type Entitlements = {
  /** Whose payment gives the account what it uses: its own, its team's, or nobody's (free). */
  source: "own" | "team" | "free";
  /** The product the account uses now (wv_free when nothing is paid). */
  productCode: string;
  plan: PlanEntry | null;
  /** Seats paid for (the team's for a member, 1 for the free plan). */
  seats: number;
  /** The product's features (spec 3.3: a space-separated list on the wire). */
  features: string[];
  maxExportResolution: Resolution;
  /** Publishing minutes per month; null when unlimited. */
  exportMinutesPerMonth: number | null;
  /** Single exports bought (the account's own: they are never a team's). */
  exportCredits: number;
  /** The essentials add-on is part of what is used. */
  essentials: boolean;
  /** The account may manage a team (a team plan is in use). */
  teamManagement: boolean;
};

/** The features of a plan (spec 3.3 Features). */
export function planFeatures(plan: PlanEntry | null): string[] {
  if (!plan) return [];
  const list = [
    plan.maxPublishResolution === "2160p"
      ? "Publish4K"
      : plan.maxPublishResolution === "1080p"
        ? "Publish1080p"
        : "Publish720p",
    plan.screenCapture ? "ScreenCapture" : null,
    plan.dualCapture ? "DualCapture" : null,
    plan.premiumMusic ? "PremiumMusic" : null,
    plan.essentials ? "Essentials" : null,
    plan.multiUser ? "TeamManagement" : null,
    plan.isTrial ? "TrialEmailVerification" : null,
  ];
  return list.filter((f): f is string => f !== null);
}

function entitlementsFor(
  source: Entitlements["source"],
  productCode: string,
  seats: number,
  plans: readonly PlanEntry[],
  exportCredits: number,
): Entitlements {
  const plan = plans.find((p) => p.code === productCode) ?? null;
  return {
    source,
    productCode,
    plan,
    seats,
    features: planFeatures(plan),
    maxExportResolution: plan?.maxPublishResolution ?? "720p",
    exportMinutesPerMonth: plan?.publishMinutesPerMonth ?? null,
    exportCredits,
    essentials: plan?.essentials ?? false,
    teamManagement: plan?.multiUser ?? false,
  };
}

/**
 * What the account may use now: a member uses the team's plan while the team has one (the
 * team's seats); otherwise the account uses what its own subscription pays for now, or the free
 * plan.
 */
export function entitlementsOf(input: EntitlementInput): Entitlements {
  const { own, team, plans, now } = input;
  if (team) {
    const paid = teamPaidNow(team.owner, plans, now);
    if (paid.productCode !== null) {
      return entitlementsFor("team", paid.productCode, paid.seats, plans, own.exportCredits);
    }
  }
  const mine = paidNow(own, now);
  if (mine) return entitlementsFor("own", mine.productCode, mine.seats, plans, own.exportCredits);
  return entitlementsFor("free", FREE_PRODUCT, 1, plans, own.exportCredits);
}
