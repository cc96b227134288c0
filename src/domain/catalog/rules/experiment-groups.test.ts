import { describe, expect, it } from "vitest";
import { issuesOf, makeExperimentInput, withExperiments } from "../testing/builders.ts";

describe("experiment groups", () => {
  it("accepts control and a price set that prices one of the plans", async () => {
    expect(await issuesOf(withExperiments(makeExperimentInput()))).toEqual([]);
  });

  it("reports shares that do not add up to 100", async () => {
    const experiment = makeExperimentInput({
      groups: [
        { set: "control", share: 60 },
        { set: "sample-catalogue", share: 50 },
      ],
    });
    expect(await issuesOf(withExperiments(experiment))).toMatchInlineSnapshot(`
      [
        "catalog/price-tests.yaml experiments[0].groups: the groups' shares add up to 110: expected 100",
      ]
    `);
  });

  it("reports a group that is neither control nor a price set, suggesting the closest", async () => {
    const experiment = makeExperimentInput({
      groups: [
        { set: "control", share: 50 },
        { set: "sample-catalog", share: 50 },
      ],
    });
    expect(await issuesOf(withExperiments(experiment))).toMatchInlineSnapshot(`
      [
        "catalog/price-tests.yaml experiments[0].groups[1].set: group sample-catalog is neither control nor a price set of price-tests.yaml: did you mean sample-catalogue?",
      ]
    `);
  });

  it("reports a group listed twice", async () => {
    const experiment = makeExperimentInput({
      groups: [
        { set: "control", share: 40 },
        { set: "sample-catalogue", share: 30 },
        { set: "sample-catalogue", share: 30 },
      ],
    });
    expect(await issuesOf(withExperiments(experiment))).toMatchInlineSnapshot(`
      [
        "catalog/price-tests.yaml experiments[0].groups[2].set: group sample-catalogue is listed twice: expected each group once, with its whole share",
      ]
    `);
  });

  it("reports an experiment with no price set to test", async () => {
    const experiment = makeExperimentInput({
      groups: [
        { set: "control", share: 50 },
        { set: "control", share: 50 },
      ],
    });
    expect(await issuesOf(withExperiments(experiment))).toMatchInlineSnapshot(`
      [
        "catalog/price-tests.yaml experiments[0].groups[1].set: group control is listed twice: expected each group once, with its whole share",
        "catalog/price-tests.yaml experiments[0].groups: has no group with a price set: expected control and at least one price set",
      ]
    `);
  });

  it("reports a price set with no price for any of the experiment's plans", async () => {
    // sample-catalogue prices only wv_k12_12m; the experiment prices Power.
    const experiment = makeExperimentInput({ plans: ["wv_single_1m", "wv_single_12m"] });
    expect(await issuesOf(withExperiments(experiment))).toMatchInlineSnapshot(`
      [
        "catalog/price-tests.yaml experiments[0].groups[1].set: price set sample-catalogue has no priceTests entry for any of the experiment's plans (wv_single_1m, wv_single_12m): its group would see the control prices",
      ]
    `);
  });
});
