import { describe, expect, it } from "vitest";
import { issuesOf, makeStructure } from "../testing/builders.ts";

describe("minimumSeats lies within the bands", () => {
  it("accepts a minimum inside the bands", async () => {
    expect(
      await issuesOf({ seatBands: { structures: [makeStructure({ minimumSeats: 100 })] } }),
    ).toEqual([]);
  });

  it("reports a minimum above the last band", async () => {
    expect(
      await issuesOf({ seatBands: { structures: [makeStructure({ minimumSeats: 101 })] } }),
    ).toMatchInlineSnapshot(`
      [
        "catalog/seat-bands.yaml structures[0].minimumSeats: minimumSeats is 101 but the bands cover 1-100 seats: expected a seat count within the bands",
      ]
    `);
  });
});
