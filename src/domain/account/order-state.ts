// Order state and trial rules of spec section 4. Pure: every function takes the facts and the
// current time (ms) it needs; nothing reads a clock.

export const ORDER_STATES = [
  "pilot",
  "trial",
  "promo",
  "automatic",
  "cancelled",
  "purchaseOrder",
  "unknown",
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

const DAY_MS = 24 * 60 * 60 * 1000;

/** Any value from storage or the wire; anything not listed is `unknown` (the default). */
export function parseOrderState(value: unknown): OrderState {
  return typeof value === "string" && (ORDER_STATES as readonly string[]).includes(value)
    ? (value as OrderState)
    : "unknown";
}

/** A pilot order is treated as a trial when it is a covid promotion order. */
export function effectiveOrderState(state: OrderState, covidPromotionOrder: boolean): OrderState {
  return state === "pilot" && covidPromotionOrder ? "trial" : state;
}

/**
 * Whole days left until the order end date (professional and business trials count whole days).
 * A part of a day counts as a day: 13.2 days left reads 14, and the end instant itself reads 0.
 */
export function remainingDays(orderEndDate: number | null, now: number): number | null {
  if (orderEndDate === null) return null;
  const days = Math.ceil((orderEndDate - now) / DAY_MS);
  return days === 0 ? 0 : days; // never -0
}

export type ExpiryFacts = {
  orderState: OrderState;
  /** False when the account has no product info at all. */
  hasProductInfo: boolean;
  /** The product payload's expiredAccount flag. */
  expiredAccount?: boolean;
  /** An EXPIRED_TRIAL flag set on the account. */
  expiredTrialFlag?: boolean;
  remainingDays: number | null;
  professionalTrial?: boolean;
  orderEndDate: number | null;
  now: number;
};

/**
 * Expired trial: the order is not automatic and (there is no product info, or the expired flag
 * is set, or an EXPIRED_TRIAL flag is true, or the remaining days are at or below 0, or it is a
 * professional trial whose end date has passed).
 */
export function isExpiredTrial(facts: ExpiryFacts): boolean {
  if (facts.orderState === "automatic") return false;
  if (!facts.hasProductInfo) return true;
  if (facts.expiredAccount === true || facts.expiredTrialFlag === true) return true;
  if (facts.remainingDays !== null && facts.remainingDays <= 0) return true;
  return (
    facts.professionalTrial === true &&
    facts.orderEndDate !== null &&
    facts.orderEndDate < facts.now
  );
}

/** Cancelled: the order state is cancelled, or the remaining days are below 0 while not automatic. */
export function isCancelled(facts: {
  orderState: OrderState;
  remainingDays: number | null;
}): boolean {
  if (facts.orderState === "cancelled") return true;
  return (
    facts.orderState !== "automatic" && facts.remainingDays !== null && facts.remainingDays < 0
  );
}

/** Managed accounts (enterprise members, purchase orders, pilot and promo orders) cannot self-purchase. */
export function isManagedAccount(facts: {
  enterpriseMember: boolean;
  enterpriseAccountOwner?: boolean;
  orderState: OrderState;
}): boolean {
  if (facts.enterpriseMember && facts.enterpriseAccountOwner !== true) return true;
  return (
    facts.orderState === "purchaseOrder" ||
    facts.orderState === "pilot" ||
    facts.orderState === "promo"
  );
}

/** Upgrades on the web are refused when disabled for the account or billed by a mobile store. */
export function upgradesDisabled(facts: {
  disableAccountUpgrades: boolean;
  itunesSubscription: boolean;
  androidSubscription: boolean;
  googleWalletSubscription?: boolean;
}): boolean {
  return (
    facts.disableAccountUpgrades ||
    facts.itunesSubscription ||
    facts.androidSubscription ||
    facts.googleWalletSubscription === true
  );
}
