import { describe, expect, it } from "vitest";
import {
  issuesOf,
  makeCatalogInput,
  makeSchoolsFamily,
  makeTrialFamily,
  withFamily,
} from "../testing/builders.ts";

describe("trial products", () => {
  it("reports a trial code that is not a plan (once per family)", async () => {
    expect(
      await issuesOf({ plans: withFamily(makeSchoolsFamily({ trialProduct: "wv_edu_trail" })) }),
    ).toMatchInlineSnapshot(`
      [
        "catalog/plans/schools.yaml trialProduct: trial product wv_edu_trail is not defined in catalog/plans/: did you mean wv_edu_trial?",
      ]
    `);
  });

  it("reports a trial product that is not a trial", async () => {
    const plans = makeCatalogInput().plans.map((f) =>
      f.family === "education-trial" ? makeTrialFamily({ isTrial: false }) : f,
    );
    expect(await issuesOf({ plans })).toMatchInlineSnapshot(`
      [
        "catalog/plans/schools.yaml trialProduct: trial product wv_edu_trial is not a trial: expected a plan family with isTrial: true",
      ]
    `);
  });
});
