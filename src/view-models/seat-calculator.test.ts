import { describe, expect, it } from "vitest";
import { seatBandTotal } from "../domain/pricing/index.ts";
import { makeSeatBand, makeSeatStructure, makeSpecCatalog } from "../domain/testing/builders.ts";
import { bandsAttr, seatCalculatorModel } from "./seat-calculator.ts";

/** The inline script's formula, applied to the data attribute. */
function liveTotal(bands: string, seats: number): number | undefined {
  const rows = bands.split(",").map((group) => group.split(" ").map(Number));
  const row = rows.find(([from = 0, to = 0]) => seats >= from && seats <= to);
  if (!row) return undefined;
  const [from = 0, , base = 0, perSeat = 0] = row;
  return base + (seats - from + 1) * perSeat;
}

describe("bandsAttr", () => {
  it("gives the live total the pricing module gives, for every seat count", () => {
    const catalog = makeSpecCatalog();
    for (const structure of catalog.seatStructures) {
      const bands = bandsAttr(structure);
      for (let seats = structure.minimumSeats; seats <= structure.maximumSeats; seats++) {
        const expected = seatBandTotal(structure, seats);
        expect(
          expected.ok && liveTotal(bands, seats) === expected.total,
          `${structure.id} ${seats}`,
        ).toBe(true);
      }
    }
  });

  it("encodes a package band with no per-seat price and a graduated band on the total below", () => {
    const structure = makeSeatStructure({
      bands: [
        makeSeatBand({ from: 1, to: 30, total: 37400 }),
        makeSeatBand({ from: 31, to: 100, perSeat: 1199 }),
      ],
    });
    expect(bandsAttr(structure)).toBe("1 30 37400 0,31 100 37400 1199");
  });
});

describe("seatCalculatorModel", () => {
  const catalog = makeSpecCatalog();
  const k12 = catalog.plans.find((p) => p.code === "wv_k12_12m");

  it("starts at the minimum of 30 seats with the band total, and quotes above the top band", () => {
    if (!k12) throw new Error("no k12 plan");
    const model = seatCalculatorModel(catalog, k12, "education");
    expect(model).toMatchObject({
      min: 30,
      max: 1000,
      initial: 30,
      totalLabel: "Total per year",
      initialTotal: "$374.00",
      quote: { href: "/orders?seats=1001", text: "More than 1,000 seats? Request a quote" },
      form: {
        action: "/cart#checkout",
        hidden: [
          { name: "p", value: "buy" },
          { name: "product", value: "wv_k12_12m" },
          { name: "tier", value: "education" },
        ],
      },
    });
    expect(model?.table.rows).toEqual([
      { seats: "1–30", price: "$374.00 in total" },
      { seats: "31–100", price: "$11.00 per seat" },
      { seats: "101–1,000", price: "$10.00 per seat" },
    ]);
  });

  it("is absent for a plan that no seat structure prices", () => {
    const k12Half = catalog.plans.find((p) => p.code === "wv_k12_6m");
    if (!k12Half) throw new Error("no k12 6m plan");
    expect(seatCalculatorModel(catalog, k12Half, "education")).toBeNull();
  });
});
