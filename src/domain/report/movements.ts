// Subscription movements per week (decision 0091): new, upgraded, downgraded, cancelled, lapsed.
// - new: a plan bought by an account that had no paid plan in use at that moment;
// - upgraded / downgraded: the plan in use changes to one worth more / less per month at list
//   price for its seats (a term change alone, monthly to annual, is neither): a purchase, seats
//   or essentials added (always up), or a renewal into another plan or seat count (a change
//   scheduled for the period end, decisions 0012 and 0027);
// - cancelled: the customer asked to stop a paid plan (cancel, PayPal's subscription ended,
//   a move to the free plan), counted when asked;
// - lapsed: a paid plan stopped without being asked to: its period ended and no renewal paid
//   within the seven retry days (decision 0015), counted in the week the period ended once those
//   days are over; or a refund or lost dispute took it away, counted when recorded.
import type { Catalog } from "../catalog/catalog-schema.ts";
import { pricePlan } from "../pricing/plan-pricing.ts";
import { RENEWAL_ATTEMPT_DAYS } from "../renewals/dunning.ts";
import { type Ledger, payingUsers, planInUse } from "./ledger.ts";
import type { CancellationRow } from "./rows.ts";
import { type Slice, sliceOf, type Window, weeksOf } from "./window.ts";

export type WeekMovements = {
  week: string;
  new: number;
  upgraded: number;
  downgraded: number;
  cancelled: number;
  lapsed: number;
};

/** Renewal retries run until the last attempt day after the renewal date (decision 0015). */
export const RETRY_MS = (RENEWAL_ATTEMPT_DAYS.at(-1) ?? 0) * 86_400_000;

/** The cancellation events that stop a paid plan (not a trial's, not the essentials add-on's). */
export const PLAN_CANCELLATIONS = new Set([
  "cancel_subscription",
  "paypal_subscription_ended",
  "convert_to_free",
]);

/**
 * The list price per month of a product with `seats`, at the monthly version of its family when
 * there is one, so that plans compare by what they are and not by their term; null when the
 * catalogue does not price it.
 */
function monthlyListValue(
  catalog: Pick<Catalog, "plans" | "seatStructures" | "campaigns">,
  productCode: string,
  seats: number,
  atMs: number,
): number | null {
  const plan = catalog.plans.find((p) => p.code === productCode);
  if (!plan) return null;
  const monthly = plan.monthlyVersion
    ? (catalog.plans.find((p) => p.code === plan.monthlyVersion) ?? plan)
    : plan;
  const priced = pricePlan(catalog, monthly, { atMs, seats, priceSetId: null });
  if (!priced.ok || monthly.termDuration <= 0) return null;
  return (priced.value.basePrice + priced.value.extraSeatsAmount) / monthly.termDuration;
}

type Held = { productCode: string; seats: number } | null;

function direction(
  catalog: Pick<Catalog, "plans" | "seatStructures" | "campaigns">,
  before: NonNullable<Held>,
  after: NonNullable<Held>,
  at: number,
): "upgraded" | "downgraded" | null {
  if (before.productCode === after.productCode && before.seats === after.seats) return null;
  const a = monthlyListValue(catalog, before.productCode, before.seats, at);
  const b = monthlyListValue(catalog, after.productCode, after.seats, at);
  if (a === null || b === null) {
    // Not priced by today's catalogue: seats alone still tell.
    if (before.productCode !== after.productCode) return null;
    return after.seats > before.seats ? "upgraded" : "downgraded";
  }
  if (b > a) return "upgraded";
  if (b < a) return "downgraded";
  return null;
}

export function movementsOf(
  ledger: Ledger,
  catalog: Pick<Catalog, "plans" | "seatStructures" | "campaigns">,
  cancellations: readonly CancellationRow[],
  w: Window,
): WeekMovements[] {
  const weeks: Slice[] = weeksOf(w);
  const rows: WeekMovements[] = weeks.map((s) => ({
    week: s.label,
    new: 0,
    upgraded: 0,
    downgraded: 0,
    cancelled: 0,
    lapsed: 0,
  }));
  const count = (at: number, what: keyof Omit<WeekMovements, "week">) => {
    const i = sliceOf(weeks, at);
    const row = rows[i];
    if (row) row[what] += 1;
  };
  const cancelsByUser = new Map<number, number[]>();
  for (const c of cancellations) {
    if (!PLAN_CANCELLATIONS.has(c.name)) continue;
    // Only a customer with a paid plan in use cancels one.
    if (planInUse(ledger, c.userId, c.at) === null) continue;
    count(c.at, "cancelled");
    cancelsByUser.set(c.userId, [...(cancelsByUser.get(c.userId) ?? []), c.at]);
  }
  for (const user of payingUsers(ledger)) {
    const orders = ledger.paidByUser.get(user) ?? [];
    for (const order of orders) {
      if (order.kind !== "plan") continue;
      const at = order.createdAt;
      const after = planInUse(ledger, user, at, at + 1);
      if (order.renewal) {
        // The period before: the plan in use just before this period began.
        const before = planInUse(ledger, user, order.periodStart - 1, at);
        if (before && after) {
          const moved = direction(catalog, before, after, at);
          if (moved) count(at, moved);
        }
        continue;
      }
      const before = planInUse(ledger, user, at - 1, at);
      if (before === null) {
        if (after !== null) count(at, "new");
        continue;
      }
      const items = ledger.items.get(order.id) ?? [];
      const addition = items.some((i) => i.kind === "seats" || i.kind === "essentials");
      if (addition) count(at, "upgraded");
      else if (after) {
        const moved = direction(catalog, before, after, at);
        if (moved) count(at, moved);
      }
    }
    // Ends: a period end or a refund after which nothing is in use.
    const ends = new Set<number>();
    for (const order of orders) {
      for (const item of ledger.items.get(order.id) ?? [])
        if (item.kind === "plan" && item.periodEnd !== null) ends.add(item.periodEnd);
      for (const refund of ledger.refunds.get(order.id) ?? []) ends.add(refund.createdAt);
    }
    for (const end of [...ends].sort((a, b) => a - b)) {
      if (end < w.from || end >= w.to) continue;
      const byRefund = orders.some((o) =>
        (ledger.refunds.get(o.id) ?? []).some((r) => r.createdAt === end),
      );
      const before = planInUse(ledger, user, end - 1, end);
      if (before === null) continue;
      if (byRefund) {
        if (planInUse(ledger, user, end, end + 1) === null) count(end, "lapsed");
        continue;
      }
      if (end + RETRY_MS > w.to) continue;
      // Renewed, or bought again, within the retry days: no lapse.
      if (planInUse(ledger, user, end, end + RETRY_MS) !== null) continue;
      if (
        orders.some((o) => o.kind === "plan" && o.createdAt >= end && o.createdAt < end + RETRY_MS)
      )
        continue;
      const paidFrom = ledger.orders.get(before.paymentId)?.createdAt ?? before.periodStart;
      const asked = (cancelsByUser.get(user) ?? []).some((c) => c >= paidFrom && c <= end);
      if (!asked) count(end, "lapsed");
    }
  }
  return rows;
}
