import { describe, expect, it } from "vitest";
import {
  issuesOf,
  makeCampaignInput,
  makeCatalogInput,
  makeStructure,
  makeTrialFamily,
} from "../testing/builders.ts";

describe("codes and ids are unique", () => {
  it("reports a code used by a plan and an export, and by two plan families", async () => {
    const input = makeCatalogInput();
    expect(
      await issuesOf({
        plans: [...input.plans, makeTrialFamily({ family: "another-trial" })],
        exports: {
          ...input.exports,
          singleExports: [{ code: "wv_single_1m", name: "HD", resolution: "1080p", price: 2.99 }],
        },
      }),
    ).toMatchInlineSnapshot(`
      [
        "catalog/exports.yaml singleExports[0].code: code wv_single_1m is already used by a plan of family power: expected every product code to be unique",
        "catalog/plans/another-trial.yaml variants[0].code: code wv_edu_trial is already used by a plan of family education-trial: expected every product code to be unique",
      ]
    `);
  });

  it("reports a campaign id and a seat structure id used twice", async () => {
    expect(
      await issuesOf({
        campaigns: {
          campaigns: [makeCampaignInput(), makeCampaignInput({ coupon: "other", banners: [] })],
        },
        seatBands: { structures: [makeStructure(), makeStructure({ default: false })] },
      }),
    ).toMatchInlineSnapshot(`
      [
        "catalog/campaigns.yaml campaigns[1].id: campaign id black-friday-2026 is already used: expected every campaign id to be unique",
        "catalog/seat-bands.yaml structures[1].id: seat structure id k12-2024-01 is already used: expected every seat structure id to be unique",
      ]
    `);
  });
});
