import { describe, expect, it } from "vitest";
import { makePlan } from "../testing/builders.ts";
import { filterPlans, resolutionAllows } from "./plan-filters.ts";

describe("resolutionAllows", () => {
  it.each([
    ["720", ["720p", "1080p", "2160p"]],
    ["1080", ["1080p", "2160p"]],
    ["2160", ["2160p"]],
  ] as const)("%s allows %j", (filter, allowed) => {
    const all = ["720p", "1080p", "2160p"] as const;
    expect(all.filter((r) => resolutionAllows(filter, r))).toEqual(allowed);
  });
});

describe("filterPlans", () => {
  const plans = [
    makePlan({ code: "wv_single_12m", maxPublishResolution: "720p" }),
    makePlan({ code: "wv_unloct17_12m", maxPublishResolution: "2160p" }),
    makePlan({ code: "wv_bizindiv_12m", maxPublishResolution: "1080p" }),
  ];
  const codes = (list: { code: string }[]) => list.map((p) => p.code);

  it("keeps the allowed codes when the user has premium templates", () => {
    expect(
      codes(filterPlans(plans, { hasPremiumTemplates: true, allowed: ["wv_unloct17_12m"] })),
    ).toEqual(["wv_unloct17_12m"]);
  });

  it("keeps every plan for 'all', without premium templates, or without a list", () => {
    const all = codes(plans);
    expect(codes(filterPlans(plans, { hasPremiumTemplates: true, allowed: "all" }))).toEqual(all);
    expect(codes(filterPlans(plans, { hasPremiumTemplates: true, allowed: ["all"] }))).toEqual(all);
    expect(
      codes(filterPlans(plans, { hasPremiumTemplates: false, allowed: ["wv_unloct17_12m"] })),
    ).toEqual(all);
    expect(codes(filterPlans(plans, { hasPremiumTemplates: true }))).toEqual(all);
  });

  it("applies a resolution filter", () => {
    expect(codes(filterPlans(plans, { hasPremiumTemplates: false, resolution: "1080" }))).toEqual([
      "wv_unloct17_12m",
      "wv_bizindiv_12m",
    ]);
  });
});
