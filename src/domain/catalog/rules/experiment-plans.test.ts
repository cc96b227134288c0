import { describe, expect, it } from "vitest";
import { issuesOf, makeExperimentInput, withExperiments } from "../testing/builders.ts";

describe("experiment plans and windows", () => {
  it("reports a plan that is not a product code, suggesting the closest", async () => {
    const experiment = makeExperimentInput({ plans: ["wv_k12_12m", "wv_k12_1m"] });
    expect(await issuesOf(withExperiments(experiment))).toMatchInlineSnapshot(`
      [
        "catalog/price-tests.yaml experiments[0].plans[1]: plan code wv_k12_1m is not defined in catalog/plans/: did you mean wv_k12_12m?",
      ]
    `);
  });

  it("reports a window that does not start before it ends", async () => {
    const experiment = makeExperimentInput({
      from: "2027-04-12T04:00:00Z",
      to: "2027-04-12T04:00:00Z",
    });
    expect(await issuesOf(withExperiments(experiment))).toMatchInlineSnapshot(`
      [
        "catalog/price-tests.yaml experiments[0].to: from 2027-04-12T04:00:00Z is not before to 2027-04-12T04:00:00Z: expected the window to start before it ends",
      ]
    `);
  });

  it("reports two experiments pricing one plan at the same time", async () => {
    const first = makeExperimentInput();
    const second = makeExperimentInput({
      id: "schools-price-spring",
      from: "2027-04-01T00:00:00Z",
      to: "2027-06-01T00:00:00Z",
    });
    expect(await issuesOf(withExperiments(first, second))).toMatchInlineSnapshot(`
      [
        "catalog/price-tests.yaml experiments[1].plans[0]: plan wv_k12_12m is also priced by experiment schools-price-2027, whose window overlaps this one from 2027-04-01T00:00:00Z to 2027-04-12T04:00:00Z: expected one experiment per plan at any time",
      ]
    `);
  });

  it("accepts one plan in experiments one after the other", async () => {
    const first = makeExperimentInput();
    const second = makeExperimentInput({
      id: "schools-price-spring",
      from: "2027-04-12T04:00:00Z",
      to: "2027-06-01T00:00:00Z",
    });
    expect(await issuesOf(withExperiments(first, second))).toEqual([]);
  });

  it("reports an experiment id used twice", async () => {
    const first = makeExperimentInput();
    const second = makeExperimentInput({
      from: "2027-05-01T00:00:00Z",
      to: "2027-06-01T00:00:00Z",
    });
    expect(await issuesOf(withExperiments(first, second))).toMatchInlineSnapshot(`
      [
        "catalog/price-tests.yaml experiments[1].id: experiment id schools-price-2027 is already used: expected every experiment id to be unique",
      ]
    `);
  });
});
