import { describe, expect, it } from "vitest";
import { issuesOf, makeBand, makeStructure } from "../testing/builders.ts";

const withBands = (...bands: ReturnType<typeof makeBand>[]) => ({
  seatBands: { structures: [makeStructure({ bands })] },
});

describe("seat band prices", () => {
  it("accepts a package band followed by graduated bands and a higher package", async () => {
    expect(
      await issuesOf(
        withBands(
          makeBand({ from: 1, to: 30, total: 374 }),
          makeBand({ from: 31, to: 40, total: undefined, perSeat: 10 }),
          makeBand({ from: 41, to: 100, total: 474 }),
        ),
      ),
    ).toEqual([]);
  });

  it("reports a band with both total and perSeat", async () => {
    expect(
      await issuesOf(
        withBands(makeBand(), makeBand({ from: 31, to: 100, total: 500, perSeat: 4.99 })),
      ),
    ).toMatchInlineSnapshot(`
      [
        "catalog/seat-bands.yaml structures[0].bands[1].perSeat: band 31-100 has both total and perSeat: expected exactly one",
      ]
    `);
  });

  it("reports a band with neither total nor perSeat", async () => {
    expect(
      await issuesOf(withBands(makeBand(), makeBand({ from: 31, to: 100, total: undefined }))),
    ).toMatchInlineSnapshot(`
      [
        "catalog/seat-bands.yaml structures[0].bands[1].from: band 31-100 has neither total nor perSeat: expected exactly one",
      ]
    `);
  });

  it("reports a package total below the total at the top of the band before", async () => {
    // 1-30 costs 374; 31-40 at 10 a seat brings 40 seats to 474; a 41-100 package at 400 falls.
    expect(
      await issuesOf(
        withBands(
          makeBand({ from: 1, to: 30, total: 374 }),
          makeBand({ from: 31, to: 40, total: undefined, perSeat: 10 }),
          makeBand({ from: 41, to: 100, total: 400 }),
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "catalog/seat-bands.yaml structures[0].bands[2].total: band 41-100 totals 400.00 for 41 seats, less than 474.00 for 40 seats in the band before: expected the total never to fall as seats rise",
      ]
    `);
  });

  it("accepts an equal total (the price may stay flat)", async () => {
    expect(
      await issuesOf(withBands(makeBand(), makeBand({ from: 31, to: 100, total: 374 }))),
    ).toEqual([]);
  });
});
