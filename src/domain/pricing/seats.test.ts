import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbSeatStructure } from "../testing/arbitraries.ts";
import {
  makeCatalog,
  makePlan,
  makeSeatBand,
  makeSeatStructure,
  makeSpecCatalog,
} from "../testing/builders.ts";
import { extraSeatCount, seatBandTops, seatBandTotal, seatStructureFor } from "./seats.ts";

const catalog = makeSpecCatalog();
const current = catalog.seatStructures.find((s) => s.id === "k12-2024-01");
const older = catalog.seatStructures.find((s) => s.id === "k12-legacy");
if (!current || !older) throw new Error("fixture lost its seat structures");

describe("seatBandTotal", () => {
  it("prices 30 schools seats at 374, or 299 in the older structure", () => {
    expect(seatBandTotal(current, 30)).toMatchObject({
      ok: true,
      total: 37400,
      band: { from: 1, to: 30 },
    });
    expect(seatBandTotal(older, 30)).toMatchObject({ ok: true, total: 29900 });
  });

  it("charges a package band's total for any count inside it", () => {
    const structure = makeSeatStructure({
      minimumSeats: 1,
      bands: [
        makeSeatBand({ from: 1, to: 10, total: 5000 }),
        makeSeatBand({ from: 11, to: 20, total: 9000 }),
      ],
    });
    expect(seatBandTotal(structure, 1)).toMatchObject({ total: 5000 });
    expect(seatBandTotal(structure, 11)).toMatchObject({ total: 9000 });
    expect(seatBandTotal(structure, 20)).toMatchObject({ total: 9000 });
  });

  it("adds graduated seats on top of the total at the band below", () => {
    // 374 + 5 × 11.00 for 35 seats; 374 + 70 × 11 + 1 × 10 for 101 seats.
    expect(seatBandTotal(current, 35)).toMatchObject({ ok: true, total: 37400 + 5 * 1100 });
    expect(seatBandTotal(current, 101)).toMatchObject({
      ok: true,
      total: 37400 + 70 * 1100 + 1000,
    });
    expect(seatBandTops(current)).toEqual([
      37400,
      37400 + 70 * 1100,
      37400 + 70 * 1100 + 900 * 1000,
    ]);
  });

  it("enforces the education minimum of 30 seats", () => {
    expect(seatBandTotal(current, 29)).toEqual({
      ok: false,
      error: {
        code: "SEATS_BELOW_MINIMUM",
        message: "Schools, January 2024 needs at least 30 seats; you asked for 29.",
      },
    });
  });

  it("sends orders above the last band to the quote page", () => {
    const result = seatBandTotal(
      makeSeatStructure({ bands: [makeSeatBand({ from: 1, to: 50000, perSeat: 500 })] }),
      50001,
    );
    expect(result).toEqual({
      ok: false,
      error: {
        code: "SEATS_ABOVE_MAXIMUM",
        message:
          "Online orders go up to 50,000 seats. For 50,001 seats, ask us for a quote at /orders?seats=50001.",
      },
    });
  });

  it("rejects seat counts that are not whole positive numbers", () => {
    expect(seatBandTotal(current, 30.5)).toMatchObject({
      ok: false,
      error: { code: "INVALID_SEATS" },
    });
    expect(seatBandTotal(current, 0)).toMatchObject({
      ok: false,
      error: { code: "INVALID_SEATS" },
    });
  });

  it("names a gap between bands instead of pricing it", () => {
    const gappy = makeSeatStructure({
      minimumSeats: 1,
      bands: [
        makeSeatBand({ from: 1, to: 10, total: 100 }),
        makeSeatBand({ from: 20, to: 30, total: 200 }),
      ],
    });
    expect(seatBandTotal(gappy, 15)).toMatchObject({
      ok: false,
      error: {
        code: "SEATS_NOT_PRICED",
        message:
          "No price band of Schools, January 2024 covers 15 seats. Ask us for a quote at /orders?seats=15.",
      },
    });
  });

  it("never falls as seats rise, for any valid structure", () => {
    fc.assert(
      fc.property(arbSeatStructure(), fc.nat(), fc.nat(), (structure, a, b) => {
        const range = structure.maximumSeats - structure.minimumSeats + 1;
        const low = structure.minimumSeats + (Math.min(a, b) % range);
        const high = Math.min(structure.maximumSeats, low + (Math.max(a, b) % range));
        const lowTotal = seatBandTotal(structure, low);
        const highTotal = seatBandTotal(structure, high);
        if (!lowTotal.ok || !highTotal.ok) return false;
        return lowTotal.total >= 0 && lowTotal.total <= highTotal.total;
      }),
      { numRuns: 10_000 },
    );
  });
});

describe("seatStructureFor", () => {
  const k12 = catalog.plans.find((p) => p.code === "wv_k12_12m");
  const k12Half = catalog.plans.find((p) => p.code === "wv_k12_6m");
  if (!k12 || !k12Half) throw new Error("fixture lost its schools plans");

  it("bands only the plans a structure applies to", () => {
    expect(seatStructureFor(catalog, k12)).toMatchObject({
      ok: true,
      value: { id: "k12-2024-01" },
    });
    expect(seatStructureFor(catalog, k12Half)).toEqual({ ok: true, value: null });
  });

  it("uses the structure asked for, if it applies", () => {
    expect(seatStructureFor(catalog, k12, "k12-legacy")).toMatchObject({
      ok: true,
      value: { id: "k12-legacy" },
    });
    expect(seatStructureFor(catalog, k12Half, "k12-legacy")).toEqual({
      ok: false,
      error: {
        code: "SEAT_STRUCTURE_NOT_FOR_PLAN",
        message: "Seat structure 'k12-legacy' does not price Schools.",
      },
    });
    expect(seatStructureFor(catalog, k12, "nope")).toEqual({
      ok: false,
      error: { code: "UNKNOWN_SEAT_STRUCTURE", message: "Unknown seat structure 'nope'." },
    });
  });

  it("prefers the plan's own structure, then the default", () => {
    const both = makeCatalog({
      seatStructures: [
        makeSeatStructure({ id: "a", default: false }),
        makeSeatStructure({ id: "b", default: true }),
      ],
    });
    expect(
      seatStructureFor(both, makePlan({ code: "wv_k12_12m", seatStructure: "a" })),
    ).toMatchObject({ value: { id: "a" } });
    expect(seatStructureFor(both, makePlan({ code: "wv_k12_12m" }))).toMatchObject({
      value: { id: "b" },
    });
  });
});

describe("extraSeatCount", () => {
  it("counts seats above those included, never below 0", () => {
    expect(extraSeatCount(3, 5)).toBe(2);
    expect(extraSeatCount(3, 2)).toBe(0);
    expect(extraSeatCount(-1, 4)).toBe(4);
  });
});
