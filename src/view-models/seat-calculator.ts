// The schools seat calculator (spec sections 5 and 9): minimum 30 seats, banded prices, and above
// the top band a quote link /orders?seats=N. Without JavaScript it is a form that opens the
// checkout with the seat count (whose quote comes from the pricing module) and a table of band
// prices; the inline script adds a live total from the band data precomputed here.
import type { Catalog, PlanEntry, SeatStructure } from "../domain/catalog/catalog-schema.ts";
import {
  formatCount,
  formatUsd,
  seatBandTops,
  seatBandTotal,
  seatStructureFor,
  termLabel,
} from "../domain/pricing/index.ts";
import { quoteHref } from "./checkout-links.ts";

export type SeatCalculatorModel = {
  inputId: string;
  min: number;
  /** Largest seat count sold online: the top band's upper bound. */
  max: number;
  initial: number;
  totalLabel: string;
  initialTotal: string;
  /**
   * One "from to base perSeat" group per band, comma-separated, in cents: the total for n seats
   * in a band is base + (n - from + 1) × perSeat. base is the pricing module's total at the top of
   * the band below (seatBandTops) for a graduated band, or the band's package total (perSeat 0).
   */
  bands: string;
  hint: string;
  form: { action: string; hidden: { name: string; value: string }[]; submit: string };
  quote: { href: string; text: string };
  table: { caption: string; rows: { seats: string; price: string }[] };
};

/** The band data of the live total; the e2e tests check it against seatBandTotal. */
export function bandsAttr(structure: SeatStructure): string {
  const tops = seatBandTops(structure);
  return structure.bands
    .map((band, i) => {
      const graduated = band.total === null;
      const base = graduated ? (i === 0 ? 0 : (tops[i - 1] ?? 0)) : (band.total ?? 0);
      return `${band.from} ${band.to} ${base} ${graduated ? (band.perSeat ?? 0) : 0}`;
    })
    .join(",");
}

function bandRow(band: SeatStructure["bands"][number]): { seats: string; price: string } {
  const seats = `${formatCount(band.from)}–${formatCount(band.to)}`;
  if (band.total !== null) return { seats, price: `${formatUsd(band.total)} in total` };
  return { seats, price: `${formatUsd(band.perSeat ?? 0)} per seat` };
}

export function seatCalculatorModel(
  catalog: Catalog,
  plan: PlanEntry,
  tier: string,
): SeatCalculatorModel | null {
  const found = seatStructureFor(catalog, plan);
  const structure = found.ok ? found.value : null;
  if (structure === null) return null;
  const min = Math.max(structure.minimumSeats, plan.minSeats);
  const max = structure.bands.at(-1)?.to ?? structure.maximumSeats;
  const initial = seatBandTotal(structure, min);
  if (!initial.ok) return null;
  return {
    inputId: "seats",
    min,
    max,
    initial: min,
    totalLabel: `Total per ${termLabel(plan.termDuration)}`,
    initialTotal: formatUsd(initial.total),
    bands: bandsAttr(structure),
    hint: `At least ${formatCount(min)} seats. Online orders go up to ${formatCount(max)} seats.`,
    form: {
      action: "/cart#checkout",
      hidden: [
        { name: "p", value: "buy" },
        { name: "product", value: plan.code },
        { name: "tier", value: tier },
      ],
      submit: `Buy ${plan.name} seats`,
    },
    quote: {
      href: quoteHref(max + 1),
      text: `More than ${formatCount(max)} seats? Request a quote`,
    },
    table: {
      caption:
        "Price per seat, by band: each seat costs the price of its band, on top of the seats below it.",
      rows: structure.bands.map(bandRow),
    },
  };
}
