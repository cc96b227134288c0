import { describe, expect, it } from "vitest";
import { issuesOf, makeBand, makeStructure } from "../testing/builders.ts";

const withBands = (...bands: ReturnType<typeof makeBand>[]) => ({
  seatBands: { structures: [makeStructure({ bands })] },
});

describe("seat bands are contiguous from 1", () => {
  it("accepts bands that follow each other", async () => {
    expect(
      await issuesOf(
        withBands(makeBand({ from: 1, to: 30 }), makeBand({ from: 31, to: 100, total: 500 })),
      ),
    ).toEqual([]);
  });

  it("reports a first band that does not start at 1", async () => {
    expect(await issuesOf(withBands(makeBand({ from: 5, to: 30 })))).toMatchInlineSnapshot(`
      [
        "catalog/seat-bands.yaml structures[0].bands[0].from: the first band starts at 5 seats: expected 1",
      ]
    `);
  });

  it("reports a gap between bands", async () => {
    expect(
      await issuesOf(withBands(makeBand(), makeBand({ from: 35, to: 100, total: 500 }))),
    ).toMatchInlineSnapshot(`
      [
        "catalog/seat-bands.yaml structures[0].bands[1].from: band starts at 35 seats but the band before ends at 30: expected 31 (seats 31-34 have no price)",
      ]
    `);
  });

  it("reports overlapping bands", async () => {
    expect(
      await issuesOf(withBands(makeBand(), makeBand({ from: 25, to: 100, total: 500 }))),
    ).toMatchInlineSnapshot(`
      [
        "catalog/seat-bands.yaml structures[0].bands[1].from: band starts at 25 seats but the band before ends at 30: expected 31 (seats 25-30 are in two bands)",
      ]
    `);
  });

  it("reports a band that ends before it starts", async () => {
    expect(
      await issuesOf(withBands(makeBand(), makeBand({ from: 31, to: 20, total: 500 }))),
    ).toMatchInlineSnapshot(`
      [
        "catalog/seat-bands.yaml structures[0].bands[1].to: band starts at 31 seats but ends at 20: expected from ≤ to",
      ]
    `);
  });
});
