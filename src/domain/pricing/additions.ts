// Mid-period additions (issue 18, item 9): seats, or the essentials add-on, added to the plan that
// is running. They are charged pro rata for the rest of the current period and renew with the
// subscription on its existing date: the period is neither restarted nor credited.
//
// An order is an addition when the account has a running paid period and the order keeps its plan
// and term (the plan itself, or its essentials version), keeps every seat and adds seats or
// essentials. The charge is the difference between the full-term value after and before (both at
// today's prices, without campaigns: a first-term discount is never taken again) times the unused
// fraction of the period, rounded half up; seats and essentials are one line each.
import type { Catalog, PlanEntry } from "../catalog/catalog-schema.ts";
import type { PriceLine } from "./lines.ts";
import { formatCount, mulDivRoundHalfUp } from "./money.ts";
import { type PlanPricing, pricePlan } from "./plan-pricing.ts";

export type RunningPeriod = {
  planCode: string;
  seats: number;
  periodStart: number;
  periodEnd: number;
};

export type Addition = {
  /** The renewal date the subscription keeps: the end of the current period. */
  periodEnd: number;
  /** Unused fraction of the current period, 0 to 1. */
  ratio: number;
  /**
   * What the addition adds to a full term's value (before the pro rata): the running period is
   * then worth what was paid plus this, for the credit of a later change.
   */
  termValueAdded: number;
  lines: PriceLine[];
};

/** The plan without essentials: its own code, or its essentials downgrade. */
function plainCode(plan: PlanEntry): string {
  return plan.essentials && plan.essentialsDowngrade ? plan.essentialsDowngrade : plan.code;
}

/** The seat part of a term's value: the plan's price (or band total) and its extra seats. */
function seatValue(p: PlanPricing, plan: PlanEntry): number {
  const essentialsInPrice = plan.essentials ? plan.essentialsPrice : 0;
  return p.basePrice - essentialsInPrice + p.extraSeatsAmount;
}

/**
 * The addition that this order is to the running period, or null when it is not one (a new
 * subscription, another plan or term, fewer seats, or nothing added).
 */
export function additionTo(
  catalog: Pick<Catalog, "plans" | "seatStructures" | "campaigns">,
  running: RunningPeriod,
  target: {
    /** The priced plan of the order, and whether the order adds the essentials add-on. */
    priced: PlanPricing;
    addsEssentials: { name: string; price: number } | null;
    atMs: number;
    priceSetId: string | null;
  },
): Addition | null {
  const { priced, atMs } = target;
  const current = catalog.plans.find((p) => p.code === running.planCode);
  if (current === undefined || !current.recurring || !priced.plan.recurring) return null;
  if (plainCode(current) !== plainCode(priced.plan)) return null;
  if (current.termDuration !== priced.plan.termDuration) return null;
  const span = running.periodEnd - running.periodStart;
  if (span <= 0 || atMs >= running.periodEnd) return null;
  const hadEssentials = current.essentials;
  const hasEssentials = priced.plan.essentials || target.addsEssentials !== null;
  if (hadEssentials && !hasEssentials) return null;
  if (priced.seats < running.seats) return null;
  const addedSeats = priced.seats - running.seats;
  const addedEssentials = hasEssentials && !hadEssentials;
  if (addedSeats === 0 && !addedEssentials) return null;

  // What the running seats are worth for a term today, in the same price set, without campaigns.
  const before = pricePlan(catalog, priced.plan, {
    atMs,
    seats: running.seats,
    priceSetId: target.priceSetId,
  });
  if (!before.ok) return null;
  const seatsDelta = Math.max(
    0,
    seatValue(priced, priced.plan) - seatValue(before.value, priced.plan),
  );
  const essentialsPrice = !addedEssentials
    ? 0
    : (target.addsEssentials?.price ?? priced.plan.essentialsPrice);

  const unused = Math.min(span, Math.max(0, running.periodEnd - atMs));
  const rest = (cents: number) => mulDivRoundHalfUp(cents, unused, span);
  const lines: PriceLine[] = [];
  if (addedSeats > 0 && seatsDelta > 0) {
    lines.push({
      kind: "extraSeats",
      label: `${formatCount(addedSeats)} added ${addedSeats === 1 ? "seat" : "seats"} for the rest of your billing period`,
      amount: rest(seatsDelta),
    });
  }
  if (essentialsPrice > 0) {
    lines.push({
      kind: "essentials",
      label: `${target.addsEssentials?.name ?? "Essentials"} for the rest of your billing period`,
      amount: rest(essentialsPrice),
    });
  }
  return {
    periodEnd: running.periodEnd,
    ratio: unused / span,
    termValueAdded: (addedSeats > 0 ? seatsDelta : 0) + essentialsPrice,
    lines,
  };
}
