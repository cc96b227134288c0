// What happens to a subscription when its paid period has ended: nothing yet, it ends, or it
// renews into the next period. Periods are anchored (../calendar): period n of a subscription that
// started at `anchor` ends at periodEnd(anchor, n, termMonths), counted from the anchor every time,
// so a subscription bought on 31 January renews on 28/29 February, 31 March, 30 April, ...
//
// - A cancelled subscription is not charged: it ends at the end of the period it paid for.
// - A one-time product (Flex: not recurring) ends at the end of its validity.
// - An automatic subscription renews. A downgrade scheduled for the period end
//   (docs/decisions/0012) takes effect now: the new period is the new product with its seats. A
//   change of term (annual to monthly) starts a new anchor at the renewal date; otherwise the
//   anchor stays, so the day of the month never drifts.
import { FREE_PRODUCT } from "../account/tier.ts";
import { periodEnd } from "../calendar/index.ts";
import type { Catalog } from "../catalog/catalog-schema.ts";

export type BillingState = {
  productCode: string;
  orderState: string;
  seats: number;
  /** Months of the running period's term; null for trials and accounts that never paid. */
  termMonths: number | null;
  orderStart: number | null;
  /** End of the period paid for (the renewal date). */
  orderEnd: number | null;
  /** The anchor of the running subscription; null on rows older than anchors (order start then). */
  periodAnchor: number | null;
  /** Index of the running period from the anchor (0 for the period bought). */
  periodIndex: number;
  pendingProductCode: string | null;
  pendingSeats: number | null;
  pendingAt: number | null;
  /** The account has already fallen to the free plan (expired): nothing more happens. */
  expired: boolean;
  /**
   * Seats held in the team workspace the account owns (members and invitations to an address),
   * when it owns one: a scheduled seat reduction never renews fewer team seats than are in use
   * (docs/decisions/0027-seat-reductions.md).
   */
  seatsInUse?: number;
};

/** A renewal is claimed once per (account, anchor, index): the slot of the period it pays for. */
export type RenewalSlot = { anchor: number; index: number };

export type RenewalStep =
  | { kind: "none" }
  | { kind: "end"; reason: "cancelled" | "one_time"; endedAt: number }
  | {
      kind: "renew";
      /** The period of the running subscription that this renewal pays for. */
      slot: RenewalSlot;
      /** The new period: it starts where the paid one ended. */
      start: number;
      end: number;
      /** Anchor and index of the new period (a new anchor when the term changes). */
      anchor: number;
      index: number;
      productCode: string;
      seats: number;
      termMonths: number;
      /** A scheduled downgrade takes effect with this renewal. */
      scheduledChange: boolean;
    };

/** The next thing due for this subscription at `now`. */
export function nextRenewalStep(
  catalog: Pick<Catalog, "plans">,
  state: BillingState,
  now: number,
): RenewalStep {
  const { orderEnd, orderStart, termMonths } = state;
  if (state.expired || state.productCode === FREE_PRODUCT) return { kind: "none" };
  if (orderEnd === null || orderStart === null || termMonths === null || termMonths <= 0) {
    return { kind: "none" };
  }
  if (orderEnd > now) return { kind: "none" };
  if (state.orderState === "cancelled") {
    return { kind: "end", reason: "cancelled", endedAt: orderEnd };
  }
  if (state.orderState !== "automatic") return { kind: "none" };
  const current = catalog.plans.find((p) => p.code === state.productCode);
  if (current && !current.recurring) return { kind: "end", reason: "one_time", endedAt: orderEnd };

  const anchor = state.periodAnchor ?? orderStart;
  const slot = { anchor, index: state.periodIndex + 1 };
  const start = orderEnd;
  const change =
    state.pendingProductCode !== null && (state.pendingAt ?? start) <= start
      ? { productCode: state.pendingProductCode, seats: state.pendingSeats ?? state.seats }
      : null;
  const productCode = change?.productCode ?? state.productCode;
  const target = catalog.plans.find((p) => p.code === productCode);
  const seats = change
    ? Math.max(change.seats, target?.multiUser ? (state.seatsInUse ?? 0) : 0)
    : state.seats;
  const months = target ? (target.validMonths ?? target.termDuration) : termMonths;

  // The same term keeps the anchor; a new term (or a period that would not move forward, which a
  // consistent row never has) starts a new anchor at the renewal date.
  const sameAnchorEnd = months === termMonths ? periodEnd(anchor, slot.index, months) : null;
  const next =
    sameAnchorEnd !== null && sameAnchorEnd > start
      ? { anchor, index: slot.index, end: sameAnchorEnd }
      : { anchor: start, index: 0, end: periodEnd(start, 0, months) };
  return {
    kind: "renew",
    slot,
    start,
    end: next.end,
    anchor: next.anchor,
    index: next.index,
    productCode,
    seats,
    termMonths: months,
    scheduledChange: change !== null,
  };
}

/**
 * The account once its subscription has ended (cancelled and run out, or lapsed after failed
 * payments): spec section 4's cancelled and expired account, on the free plan's entitlements.
 * orderState cancelled with the expired flag makes the views report isCancelled,
 * isExpiredAccount and expiredAccount; prevOrderState keeps what it was before (automatic).
 */
export function endedState(state: { orderState: string; prevOrderState: string | null }): {
  productCode: string;
  orderState: "cancelled";
  prevOrderState: string | null;
  expired: true;
  seats: 1;
  paidCents: 0;
} {
  return {
    productCode: FREE_PRODUCT,
    orderState: "cancelled",
    prevOrderState: state.orderState === "cancelled" ? state.prevOrderState : state.orderState,
    expired: true,
    seats: 1,
    paidCents: 0,
  };
}
