// How a plan's prices read on a card: the regular price of each billing mode, campaign prices with
// their windows, and extra-seat notes. Figures come from the quote of the pricing module.
import type { Catalog, PlanEntry } from "../domain/catalog/catalog-schema.ts";
import {
  formatCount,
  formatPrice,
  formatUsd,
  type Quote,
  termLabel,
} from "../domain/pricing/index.ts";
import { campaignSegments, isInWindow, windowsAttr } from "./campaign-windows.ts";

/** Which position of the monthly/annual switch shows an option; "always" ignores the switch. */
export type PriceMode = "annual" | "monthly" | "always";

export type PriceView = { amount: string; unit: string; detail: string | null };

export type CampaignPrice = {
  name: string;
  /** windowsAttr of the campaign window. */
  window: string;
  visibleAtBuild: boolean;
  price: PriceView;
  /** The regular amount it replaces, shown struck through. */
  was: string;
  /** "Save $23.95" */
  discount: string;
  /** For schema.org: the campaign's term price as a plain decimal, and when its window closes. */
  offerPrice: string;
  validToMs: number;
};

/** "1234.50": a price as schema.org wants it, no currency sign or grouping. */
export const plainDecimal = (amount: number) => formatPrice(amount).replaceAll(",", "");

export const perTerm = (plan: Pick<PlanEntry, "termDuration">) =>
  `/${termLabel(plan.termDuration)}`;

/** "1 year", "2 years", "6 months". */
export function validityLabel(months: number): string {
  if (months % 12 === 0) return months === 12 ? "1 year" : `${months / 12} years`;
  return months === 1 ? "1 month" : `${months} months`;
}

export function regularPrice(plan: PlanEntry, q: Quote, mode: PriceMode): PriceView {
  if (q.price === 0) return { amount: formatUsd(0), unit: "", detail: null };
  if (!plan.recurring) {
    const validity = plan.validMonths === null ? null : `valid ${validityLabel(plan.validMonths)}`;
    return { amount: formatUsd(q.price), unit: "one-time", detail: validity };
  }
  if (q.seatBand !== null || (plan.multiUser && mode === "always")) {
    return {
      amount: formatUsd(q.price),
      unit: perTerm(plan),
      detail: `for ${formatCount(q.seats)} seats`,
    };
  }
  if (plan.termDuration === 1)
    return { amount: formatUsd(q.price), unit: "/month", detail: "billed monthly" };
  if (mode === "always") {
    return {
      amount: formatUsd(q.price),
      unit: perTerm(plan),
      detail: `${formatUsd(q.monthlyEquivalent)}/month, billed ${plan.termDuration === 12 ? "yearly" : `every ${termLabel(plan.termDuration)}`}`,
    };
  }
  return {
    amount: formatUsd(q.monthlyEquivalent),
    unit: "/month",
    detail: `billed ${formatUsd(q.price)} yearly`,
  };
}

/** The campaigns of a plan from the build time on, each worded like the regular price it replaces. */
export function campaignPrices(
  catalog: Catalog,
  plan: PlanEntry,
  regular: PriceView,
  ctx: { nowMs: number; priceGroup?: string | undefined },
): CampaignPrice[] {
  return campaignSegments(catalog, plan.code, ctx.nowMs, ctx.priceGroup).map(
    (segment): CampaignPrice => {
      const c = segment.campaign;
      const term = termLabel(plan.termDuration);
      const span = c.recurring ? `every ${term}` : `for the first ${term}`;
      const monthlyBasis = plan.termDuration !== 1 && regular.unit === "/month";
      return {
        name: c.name,
        window: windowsAttr([segment]),
        visibleAtBuild: isInWindow(segment, ctx.nowMs),
        price: monthlyBasis
          ? {
              amount: formatUsd(c.monthlyEquivalent),
              unit: "/month",
              detail: `billed ${formatUsd(c.price)} ${span}`,
            }
          : { amount: formatUsd(c.price), unit: regular.unit, detail: span },
        was: regular.amount,
        discount: `Save ${formatUsd(c.discount)}`,
        offerPrice: plainDecimal(c.price),
        validToMs: segment.to,
      };
    },
  );
}

export function seatNotes(plan: PlanEntry, q: Quote): string[] {
  if (q.extraSeatPrice === null || q.seatBand !== null) return [];
  const each = `${formatUsd(q.extraSeatPrice)}${perTerm(plan)} each`;
  const monthly =
    plan.termDuration === 1 || q.extraSeatMonthly === null
      ? ""
      : ` (${formatUsd(q.extraSeatMonthly)}/month)`;
  return [`Extra seats ${each}${monthly}`];
}
