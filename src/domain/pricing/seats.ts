// Seat pricing. Plans that a seat structure `appliesTo` (the schools plan, spec section 5) are
// priced by bands; every other multi-user plan pays seatPrice for each seat above its included
// seats. Band semantics are in docs/decisions/0003: a band is a package (`total`: the order total
// for any count inside it) or graduated (`perSeat`: the total at the band below plus each seat
// inside this band at perSeat).
import type {
  Catalog,
  PlanEntry,
  SeatBandEntry,
  SeatStructure,
} from "../catalog/catalog-schema.ts";
import { type PricingError, pricingErrors, type Result } from "./errors.ts";

export type SeatBandResult =
  | { ok: true; total: number; band: SeatBandEntry }
  | { ok: false; error: PricingError };

function bandTotal(band: SeatBandEntry, seats: number, totalBelow: number): number {
  if (band.total !== null) return band.total;
  // A band with neither figure is rejected by the validator; pricing it at 0 keeps totals monotone.
  return totalBelow + (seats - band.from + 1) * (band.perSeat ?? 0);
}

/**
 * The order total at the top seat count of each band, in band order. The validator uses it to
 * check that a package band never undercuts the band below (totals never fall as seats rise).
 */
export function seatBandTops(structure: Pick<SeatStructure, "bands">): number[] {
  const tops: number[] = [];
  structure.bands.forEach((band, i) => {
    tops.push(bandTotal(band, band.to, i === 0 ? 0 : (tops[i - 1] ?? 0)));
  });
  return tops;
}

/** The order total for a seat count under a structure, with the band that priced it. */
export function seatBandTotal(structure: SeatStructure, seats: number): SeatBandResult {
  if (!Number.isSafeInteger(seats) || seats < 1) {
    return { ok: false, error: pricingErrors.invalidSeats(seats) };
  }
  if (seats < structure.minimumSeats) {
    return {
      ok: false,
      error: pricingErrors.seatsBelowMinimum(structure.name, structure.minimumSeats, seats),
    };
  }
  const last = structure.bands.at(-1);
  if (last === undefined || seats > last.to) {
    return {
      ok: false,
      error: pricingErrors.seatsAboveMaximum(last?.to ?? structure.maximumSeats, seats),
    };
  }
  const tops = seatBandTops(structure);
  const index = structure.bands.findIndex((band) => band.from <= seats && seats <= band.to);
  const band = structure.bands[index];
  if (band === undefined) {
    return { ok: false, error: pricingErrors.seatsNotPriced(structure.name, seats) };
  }
  return {
    ok: true,
    total: bandTotal(band, seats, index === 0 ? 0 : (tops[index - 1] ?? 0)),
    band,
  };
}

/**
 * The structure that prices a plan's seats, or null when the plan is not banded. A structure
 * prices only the plans it `appliesTo`. Without an explicit id: the plan's own `seatStructure`,
 * then the structure marked default, then the first that applies.
 */
export function seatStructureFor(
  catalog: Pick<Catalog, "seatStructures">,
  plan: Pick<PlanEntry, "code" | "name" | "seatStructure">,
  structureId?: string,
): Result<SeatStructure | null> {
  if (structureId !== undefined) {
    const structure = catalog.seatStructures.find((s) => s.id === structureId);
    if (structure === undefined) {
      return { ok: false, error: pricingErrors.unknownSeatStructure(structureId) };
    }
    if (!structure.appliesTo.includes(plan.code)) {
      return { ok: false, error: pricingErrors.seatStructureNotForPlan(structureId, plan.name) };
    }
    return { ok: true, value: structure };
  }
  const applying = catalog.seatStructures.filter((s) => s.appliesTo.includes(plan.code));
  const chosen =
    applying.find((s) => s.id === plan.seatStructure) ??
    applying.find((s) => s.default) ??
    applying[0] ??
    null;
  return { ok: true, value: chosen };
}

/**
 * Extra seats of a multi-user plan that is not banded: max(0, seats − includedSeats). The -1 of
 * includedSeats ("none") counts as 0 included seats.
 */
export function extraSeatCount(includedSeats: number, seats: number): number {
  return Math.max(0, seats - Math.max(0, includedSeats));
}
