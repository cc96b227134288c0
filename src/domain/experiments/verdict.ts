// What a price experiment shows so far, and whether it may be called (decision 0088). The team
// reads the report every day, so every interval here is an always-valid confidence sequence: the
// chance that any daily look ever shows a false verdict stays at alpha, however long the test runs.
import { CONTROL } from "../catalog/catalog-schema.ts";
import {
  conversionVariance,
  halfWidth,
  MIXING_VISITORS,
  smallestFitting,
} from "./confidence-sequence.ts";

export type GroupTally = {
  group: string;
  exposed: number;
  purchased: number;
  revenueCents: number;
  /** Σ over exposed visitors of (that visitor's revenue in cents)² */
  revenueSquares: number;
};
export type Interval = { estimate: number; low: number; high: number };
export type GroupResult = {
  group: string;
  exposed: number;
  purchased: number;
  conversion: Interval;
  revenuePerVisitorCents: Interval;
  /** this group's conversion minus the control's, always-valid interval; null for the control */
  liftVsControl: Interval | null;
};
export type Verdict = {
  group: string;
  kind: "better" | "worse" | "no-verdict";
  /** exposed visitors still needed per group before a verdict is possible, null once decided */
  stillNeeded: number | null;
  summary: string;
};
export type ExperimentAnalysis = {
  rule: string;
  alpha: number;
  groups: GroupResult[];
  verdicts: Verdict[];
};

export const DEFAULT_ALPHA = 0.05;

/**
 * "Still needed" counts toward the observed difference in conversion, or toward this lift relative
 * to the control's conversion when the observed difference is smaller: a smaller lift is not worth
 * waiting for.
 */
export const MINIMUM_RELATIVE_LIFT = 0.2;

export function analyseExperiment(
  tallies: readonly GroupTally[],
  options: { control?: string; alpha?: number } = {},
): ExperimentAnalysis {
  const control = options.control ?? CONTROL;
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  if (!(alpha > 0 && alpha < 1)) {
    throw new RangeError(`alpha must lie between 0 and 1 (exclusive); got ${alpha}.`);
  }
  checkTallies(tallies);
  const base = tallies.find((t) => t.group === control) ?? emptyTally(control);
  const challengers = tallies.filter((t) => t.group !== control);
  // Several groups are each compared with the control: Bonferroni keeps the chance of any false
  // verdict among them at alpha.
  const comparisonAlpha = alpha / Math.max(1, challengers.length);
  return {
    rule: ruleText(alpha),
    alpha,
    groups: tallies.map((t) => ({
      group: t.group,
      exposed: t.exposed,
      purchased: t.purchased,
      conversion: conversionInterval(t, alpha),
      revenuePerVisitorCents: revenueInterval(t, alpha),
      liftVsControl: t.group === control ? null : liftInterval(t, base, comparisonAlpha),
    })),
    verdicts: challengers.map((t) => verdictOf(t, base, comparisonAlpha, tallies.includes(base))),
  };
}

function ruleText(alpha: number): string {
  return (
    `always-valid ${percent(1 - alpha)} confidence sequence (normal mixture, Howard et al. 2021), ` +
    `two-sided, on each group's conversion minus the control's; mixture tuned for ` +
    `${MIXING_VISITORS.toLocaleString("en")} visitors per group; safe to read every day`
  );
}

function conversionInterval(t: GroupTally, alpha: number): Interval {
  if (t.exposed === 0) return { estimate: 0, low: 0, high: 1 };
  const estimate = t.purchased / t.exposed;
  const unit = conversionVariance(t.purchased, t.exposed);
  const half = halfWidth(unit / t.exposed, unit, alpha);
  return { estimate, low: Math.max(0, estimate - half), high: Math.min(1, estimate + half) };
}

/** Revenue per exposed visitor; no purchase yet means no revenue and no spread to measure. */
function revenueInterval(t: GroupTally, alpha: number): Interval {
  if (t.exposed === 0) return { estimate: 0, low: 0, high: 0 };
  const mean = t.revenueCents / t.exposed;
  const unit = Math.max(0, t.revenueSquares / t.exposed - mean * mean);
  const half = halfWidth(unit / t.exposed, unit, alpha);
  return { estimate: mean, low: Math.max(0, mean - half), high: mean + half };
}

function liftInterval(t: GroupTally, base: GroupTally, alpha: number): Interval {
  const estimate = rate(t) - rate(base);
  if (t.exposed === 0 || base.exposed === 0) return { estimate, low: -1, high: 1 };
  const unitT = conversionVariance(t.purchased, t.exposed);
  const unitBase = conversionVariance(base.purchased, base.exposed);
  const variance = unitT / t.exposed + unitBase / base.exposed;
  const half = halfWidth(variance, unitT + unitBase, alpha);
  return { estimate, low: Math.max(-1, estimate - half), high: Math.min(1, estimate + half) };
}

function verdictOf(t: GroupTally, base: GroupTally, alpha: number, hasControl: boolean): Verdict {
  const lift = liftInterval(t, base, alpha);
  const range = `${points(lift.estimate)} (always-valid ${percent(1 - alpha)} interval ${points(lift.low)} to ${points(lift.high)})`;
  if (lift.low > 0) {
    return {
      group: t.group,
      kind: "better",
      stillNeeded: null,
      summary: `${t.group} converts better than ${base.group}: ${range}.`,
    };
  }
  if (lift.high < 0) {
    return {
      group: t.group,
      kind: "worse",
      stillNeeded: null,
      summary: `${t.group} converts worse than ${base.group}: ${range}.`,
    };
  }
  const { needed, target } = stillNeeded(t, base, alpha);
  const missing = hasControl ? "" : `no tally for ${base.group} yet; `;
  return {
    group: t.group,
    kind: "no-verdict",
    stillNeeded: needed,
    summary:
      `No verdict yet for ${t.group}: ${missing}${range}. About ${needed.toLocaleString("en")} ` +
      `more exposed visitors per group before a difference of ${points(target, false)} could be called.`,
  };
}

/**
 * Visitors per group still needed before a difference of the target size would leave the interval
 * clear of zero, with both groups at the same count: the control converting as now, the group at
 * the control's rate plus the target. Counted from the smaller group; at least 1 while undecided.
 */
function stillNeeded(
  t: GroupTally,
  base: GroupTally,
  alpha: number,
): { needed: number; target: number } {
  const baseRate = smoothedRate(base);
  const observed = rate(t) - rate(base);
  const target = Math.max(Math.abs(observed), MINIMUM_RELATIVE_LIFT * baseRate);
  const otherRate = observed >= 0 ? Math.min(1, baseRate + target) : Math.max(0, baseRate - target);
  const total = smallestFitting((n) => {
    // The same smoothed variances the interval will use once each group has n visitors.
    const unit = conversionVariance(baseRate * n, n) + conversionVariance(otherRate * n, n);
    return halfWidth(unit / n, unit, alpha) < target;
  });
  const have = Math.min(t.exposed, base.exposed);
  // The target is at least 20 % of a positive rate, so `total` is found well within the limit.
  return { needed: Math.max(1, (total ?? Number.MAX_SAFE_INTEGER) - have), target };
}

/** The observed rate, or with no purchase yet the rate smoothed by one success and one failure. */
function smoothedRate(t: GroupTally): number {
  return t.purchased > 0 ? rate(t) : (t.purchased + 1) / (t.exposed + 2);
}

function rate(t: GroupTally): number {
  return t.exposed === 0 ? 0 : t.purchased / t.exposed;
}

function emptyTally(group: string): GroupTally {
  return { group, exposed: 0, purchased: 0, revenueCents: 0, revenueSquares: 0 };
}

function checkTallies(tallies: readonly GroupTally[]): void {
  const seen = new Set<string>();
  for (const t of tallies) {
    if (seen.has(t.group)) throw new RangeError(`Group ${t.group} is tallied twice.`);
    seen.add(t.group);
    for (const field of ["exposed", "purchased", "revenueCents", "revenueSquares"] as const) {
      const value = t[field];
      if (!Number.isFinite(value) || value < 0) {
        throw new RangeError(`${t.group}: ${field} must be a number ≥ 0; got ${value}.`);
      }
    }
    if (t.purchased > t.exposed) {
      throw new RangeError(
        `${t.group}: ${t.purchased} purchases from ${t.exposed} exposed visitors; each purchase needs an exposure.`,
      );
    }
  }
}

function points(difference: number, signed = true): string {
  const value = (difference * 100).toFixed(1);
  return `${signed && difference >= 0 ? "+" : ""}${value} points`;
}

function percent(share: number): string {
  return `${Number((share * 100).toFixed(2))} %`;
}
