// The price of a schools licence for a quote (issue 23 item 5, spec 2.3 /orders?seats=): the same
// seat bands as the online checkout, split into one line per band so a finance office can follow
// the sum. Above the last band (larger than any online order) the last band's per-seat price goes
// on: a quote never prices a seat differently from the bands.
import type { SeatBandEntry, SeatStructure } from "../catalog/catalog-schema.ts";
import { type PricingError, pricingErrors, type Result } from "./errors.ts";
import { formatCount, formatPrice } from "./money.ts";

export type SeatQuoteLine = { label: string; seats: number; amount: number };

export type SeatQuotePrice = {
  seats: number;
  /** One line per band the seats reach (a package band is one line for all its seats). */
  lines: SeatQuoteLine[];
  total: number;
  /** Beyond the last band: more seats than an online order may have. */
  aboveOnlineLimit: boolean;
};

function bandLine(band: SeatBandEntry, from: number, to: number): SeatQuoteLine {
  const seats = band.total !== null ? to : to - from + 1;
  const range = `Seats ${formatCount(from)} to ${formatCount(to)}`;
  if (band.total !== null) {
    return { label: `${range} (package)`, seats, amount: band.total };
  }
  const perSeat = band.perSeat ?? 0;
  return {
    label: `${range}: ${formatCount(seats)} × ${formatPrice(perSeat)}`,
    seats,
    amount: seats * perSeat,
  };
}

export function seatQuotePrice(structure: SeatStructure, seats: number): Result<SeatQuotePrice> {
  if (!Number.isSafeInteger(seats) || seats < 1 || seats > 10_000_000) {
    return { ok: false, error: pricingErrors.invalidSeats(seats) };
  }
  if (seats < structure.minimumSeats) {
    return {
      ok: false,
      error: pricingErrors.seatsBelowMinimum(structure.name, structure.minimumSeats, seats),
    };
  }
  const lines: SeatQuoteLine[] = [];
  const bands = structure.bands;
  const last = bands.at(-1);
  if (last === undefined)
    return { ok: false, error: pricingErrors.seatsNotPriced(structure.name, seats) };
  for (const [i, band] of bands.entries()) {
    if (seats < band.from) break;
    if (band.total !== null) {
      // A package band's total is the order's total for any count inside it (decision 0003):
      // it replaces the lines below it.
      lines.length = 0;
      lines.push(bandLine(band, 1, band.to));
      continue;
    }
    const to = i === bands.length - 1 ? seats : Math.min(seats, band.to);
    lines.push(bandLine(band, band.from, to));
  }
  if (seats > last.to && last.total !== null) {
    return { ok: false, error: pricingErrors.seatsNotPriced(structure.name, seats) };
  }
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  return { ok: true, value: { seats, lines, total, aboveOnlineLimit: seats > last.to } };
}

export type { PricingError };
