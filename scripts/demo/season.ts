// The simulated season's calendar and its rates: every number that shapes the story is here, so
// the story can be read (and changed) in one place. docs/decisions/0092-demo-season.md tells it.

import { tierForVertical, trialProductForTier } from "../../src/domain/account/tier.ts";
import type {
  CampaignEntry,
  Catalog,
  Experiment,
} from "../../src/domain/catalog/catalog-schema.ts";

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The experiment the season plays (catalog/price-tests.yaml). */
export const EXPERIMENT_ID = "professional-price-2027";

/** Its variant group: Professional at the sample prices (35.99 monthly, 215.88 yearly). */
export const SAMPLE_GROUP = "sample";

/** Days of the season before the experiment starts: purchases at the default prices only. */
export const DAYS_BEFORE = 7;
/** Days after the experiment ends: no new visitors, but renewals, cancellations and lapses. */
export const DAYS_AFTER = 35;

/**
 * The hour of day (UTC) the season's clock stands at while visitors act: 15:00 UTC, 10:00 in New
 * York. Every day starts at the same hour, so a purchase made a few real seconds after it renews
 * one day after the month is up, never on whichever side of the hour real time fell.
 */
export const HOUR_UTC = 15;

/**
 * The known truth of the experiment: the probability that a visitor buys Professional (on
 * arrival, or when a Professional trial ends), by the group the visitor is in. The report's
 * verdict should find the sample group better. Outside the experiment's window everyone buys at
 * the control's rate.
 */
export const PROFESSIONAL_RATE: Readonly<Record<string, number>> = {
  control: 0.05,
  [SAMPLE_GROUP]: 0.12,
};

/** What else a visitor came for, with its probability (the same in every group). */
export const OTHER_INTENTS = {
  /** Buys Power or Unlimited (monthly or annual). */
  otherPlan: 0.08,
  /** Starts a trial and lets it end. */
  trialOnly: 0.08,
  /** Buys a one-off export. */
  export: 0.04,
  /** Makes a free account and buys nothing. */
  freeAccount: 0.2,
  // The rest look at the prices and leave.
} as const;

/** How a purchase is made. */
export const PURCHASE = {
  /** Buyers who take the annual period (the rest monthly). */
  annual: 0.4,
  /** Professional buyers who try it first: a Professional trial, then the purchase at its end. */
  professionalTrialFirst: 0.3,
  /** Unlimited buyers who try it first. */
  unlimitedTrialFirst: 0.25,
  /** Buyers paying from Germany (19 % VAT); the rest from Oregon (no sales tax). */
  fromGermany: 0.15,
  /** Later visits (a trial's end, a change of plan) made from another device: a new sign-in. */
  otherDevice: 0.25,
} as const;

/**
 * The campaigns whose coupons buyers bring (catalog/campaigns.yaml), with the share of the buyers
 * of a plan the campaign prices, inside its window, who bring it: the referral offer (annual
 * plans, 2019 to 2031) and the spring offer (the first month of monthly Power and Unlimited,
 * February 2027), whose customers reach their first full-price renewal within the season.
 */
export const COUPONS: Readonly<Record<string, number>> = {
  referafriend: 0.35,
  spring2027: 0.5,
};

/** What a monthly subscriber does next, with its probability (at most one each). */
export const MONTHLY_AFTERWARDS = {
  /** Cancels within the first month: before the first renewal. */
  cancelEarly: 0.1,
  /** Cancels after a renewal or two. */
  cancelLater: 0.1,
  /** Saves a card that every charge declines: the renewal fails, retries, and lapses. */
  failingCard: 0.06,
} as const;
/** Power monthly subscribers who move up to Unlimited monthly within a month. */
export const POWER_UPGRADE = 0.3;
/** Unlimited monthly subscribers who move down to Power monthly (from their next period). */
export const UNLIMITED_DOWNGRADE = 0.15;
/** Annual subscribers who cancel (their plan runs to the end of its year). */
export const ANNUAL_CANCEL = 0.08;

/**
 * Trials started by visitors who only try, by the vertical the checkout sends: the catalogue's
 * trial plans but the education trial, which needs a school's address.
 */
export const TRIAL_KINDS: readonly (readonly [string, number])[] = [
  ["professional", 0.4],
  ["unlimited", 0.35],
  ["business", 0.25],
];

/** One-off exports, by product code. */
export const EXPORTS: readonly (readonly [string, number])[] = [
  ["single_export_hd", 0.7],
  ["single_export_4k", 0.3],
];

/** The season's days, from the catalogue's experiment window. */
export type Calendar = {
  experiment: Experiment;
  /** The campaigns of COUPONS, from the catalogue. */
  campaigns: CampaignEntry[];
  /** Day 0 at HOUR_UTC, in ms. */
  startMs: number;
  /** Days in the season (the clock is set to each, day 0 to days - 1). */
  days: number;
  /** Visitors arrive on days 0 to arrivalDays - 1 (up to the experiment's end). */
  arrivalDays: number;
};

export function dayMs(calendar: Calendar, day: number): number {
  return calendar.startMs + day * DAY_MS;
}

/** The calendar around the experiment, or why there is none (the experiment is not there). */
export function seasonCalendar(
  catalog: Pick<Catalog, "experiments" | "campaigns" | "plans">,
): Calendar | string {
  const experiment = catalog.experiments?.find((x) => x.id === EXPERIMENT_ID);
  if (!experiment) {
    return `the catalogue has no experiment "${EXPERIMENT_ID}" (catalog/price-tests.yaml): the demo season plays that one`;
  }
  if (!experiment.groups.some((g) => g.set === SAMPLE_GROUP)) {
    return `the experiment "${EXPERIMENT_ID}" has no group "${SAMPLE_GROUP}": the demo season's rates are for it`;
  }
  const campaigns = catalog.campaigns.filter((c) => c.coupon && Object.hasOwn(COUPONS, c.coupon));
  const missing = Object.keys(COUPONS).filter((code) => !campaigns.some((c) => c.coupon === code));
  if (missing.length > 0) {
    return `the catalogue has no campaign with the coupon ${missing.join(", ")} (catalog/campaigns.yaml): the demo season's buyers bring it`;
  }
  const noTrial = TRIAL_KINDS.map(([vertical]) => vertical).filter((vertical) => {
    const code = trialProductForTier(tierForVertical(vertical));
    return !catalog.plans.some((p) => p.code === code && p.isTrial);
  });
  if (noTrial.length > 0) {
    return `the catalogue has no trial plan for ${noTrial.join(", ")}: the demo season's visitors start them`;
  }
  const first = new Date(experiment.from);
  first.setUTCHours(HOUR_UTC, 0, 0, 0);
  const startMs = first.getTime() - DAYS_BEFORE * DAY_MS;
  const arrivalDays = Math.ceil((experiment.to - startMs) / DAY_MS);
  return { experiment, campaigns, startMs, days: arrivalDays + DAYS_AFTER, arrivalDays };
}
