import { describe, expect, it } from "vitest";
import {
  issuesOf,
  makeSchoolsFamily,
  makeStructure,
  makeVariant,
  withFamily,
} from "../testing/builders.ts";

describe("seat structure references", () => {
  it("reports a plan naming a structure that does not exist", async () => {
    const family = makeSchoolsFamily({
      variants: [makeVariant({ code: "wv_k12_12m", price: 374, seatStructure: "k12-2024-1" })],
    });
    expect(await issuesOf({ plans: withFamily(family) })).toMatchInlineSnapshot(`
      [
        "catalog/plans/schools.yaml variants[0].seatStructure: seat structure "k12-2024-1" is not defined in seat-bands.yaml: did you mean "k12-2024-01"?",
      ]
    `);
  });

  it("reports a plan naming a structure that does not apply to it", async () => {
    expect(
      await issuesOf({
        seatBands: {
          structures: [
            makeStructure(),
            makeStructure({ id: "k12-other", default: false, appliesTo: ["wv_edu_trial"] }),
          ],
        },
        plans: withFamily(
          makeSchoolsFamily({
            variants: [makeVariant({ code: "wv_k12_12m", price: 374, seatStructure: "k12-other" })],
          }),
        ),
      }),
    ).toMatchInlineSnapshot(`
      [
        "catalog/plans/schools.yaml variants[0].seatStructure: seat structure "k12-other" does not list wv_k12_12m in appliesTo: expected the structure to apply to this plan",
        "catalog/seat-bands.yaml structures[1].default: wv_edu_trial is priced by seat structures k12-other, none of them default: expected exactly one with default: true",
      ]
    `);
  });

  it("reports an appliesTo code that is not a plan", async () => {
    expect(
      await issuesOf({
        seatBands: { structures: [makeStructure({ appliesTo: ["wv_k12_12m", "wv_k21_12m"] })] },
      }),
    ).toMatchInlineSnapshot(`
      [
        "catalog/seat-bands.yaml structures[0].appliesTo[1]: plan code wv_k21_12m is not defined in catalog/plans/: did you mean wv_k12_12m?",
      ]
    `);
  });
});
