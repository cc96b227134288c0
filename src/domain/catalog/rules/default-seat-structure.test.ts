import { describe, expect, it } from "vitest";
import { issuesOf, makeStructure } from "../testing/builders.ts";

const older = (overrides = {}) =>
  makeStructure({ id: "k12-pre-2024", name: "Before 2024", default: false, ...overrides });

describe("exactly one default seat structure per plan", () => {
  it("accepts one default and one other", async () => {
    expect(await issuesOf({ seatBands: { structures: [makeStructure(), older()] } })).toEqual([]);
  });

  it("reports a plan with no default structure", async () => {
    expect(
      await issuesOf({ seatBands: { structures: [makeStructure({ default: false }), older()] } }),
    ).toMatchInlineSnapshot(`
      [
        "catalog/seat-bands.yaml structures[0].default: wv_k12_12m is priced by seat structures k12-2024-01, k12-pre-2024, none of them default: expected exactly one with default: true",
      ]
    `);
  });

  it("reports a plan with two default structures", async () => {
    expect(
      await issuesOf({ seatBands: { structures: [makeStructure(), older({ default: true })] } }),
    ).toMatchInlineSnapshot(`
      [
        "catalog/seat-bands.yaml structures[1].default: wv_k12_12m has 2 default seat structures (k12-2024-01, k12-pre-2024): expected exactly one with default: true",
      ]
    `);
  });
});
