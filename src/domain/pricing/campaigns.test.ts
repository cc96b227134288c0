import { describe, expect, it } from "vitest";
import { makeCampaign, makeCatalog } from "../testing/builders.ts";
import {
  activeCampaigns,
  campaignDiscount,
  campaignFor,
  couponMatches,
  couponProblem,
  isCampaignActive,
} from "./campaigns.ts";

const from = Date.UTC(2026, 10, 27);
const to = Date.UTC(2026, 11, 1);
const during = Date.UTC(2026, 10, 28);

describe("isCampaignActive", () => {
  it("is active from validFrom inclusive to validTo exclusive", () => {
    const campaign = makeCampaign({ validFrom: from, validTo: to });
    expect(isCampaignActive(campaign, from - 1)).toBe(false);
    expect(isCampaignActive(campaign, from)).toBe(true);
    expect(isCampaignActive(campaign, to - 1)).toBe(true);
    expect(isCampaignActive(campaign, to)).toBe(false);
  });

  it("lists the active campaigns", () => {
    const later = makeCampaign({ id: "later", validFrom: to, validTo: to + 1000 });
    const catalog = makeCatalog({ campaigns: [makeCampaign(), later] });
    expect(activeCampaigns(catalog, during).map((c) => c.id)).toEqual(["black-friday-2026"]);
  });
});

describe("couponMatches", () => {
  it("compares case-insensitively and ignores surrounding spaces", () => {
    const campaign = makeCampaign({ coupon: "blackfriday2019" });
    expect(couponMatches(campaign, " BlackFriday2019 ")).toBe(true);
    expect(couponMatches(campaign, "blackfriday2019fb")).toBe(false);
    expect(couponMatches(campaign, "")).toBe(false);
    expect(couponMatches(campaign, undefined)).toBe(false);
  });
});

describe("campaignFor", () => {
  const open = makeCampaign({ id: "open", prices: { wv_single_12m: 2994 } });
  const targeted = makeCampaign({
    id: "fb",
    coupon: "fb20a",
    targeted: true,
    prices: { wv_single_12m: 2500 },
  });
  const catalog = makeCatalog({ campaigns: [open, targeted] });

  it("applies a non-targeted campaign to everyone in its window", () => {
    expect(campaignFor(catalog, "wv_single_12m", { atMs: during })).toMatchObject({
      id: "open",
      price: 2994,
    });
    expect(campaignFor(catalog, "wv_single_12m", { atMs: to })).toBeNull();
  });

  it("applies a targeted campaign only when the coupon matches", () => {
    expect(campaignFor(catalog, "wv_single_12m", { atMs: during, coupon: "FB20A" })).toMatchObject({
      id: "fb",
      price: 2500,
      couponMatched: true,
    });
  });

  it("ignores plans that are not in the campaign", () => {
    expect(campaignFor(catalog, "wv_single_1m", { atMs: during, coupon: "fb20a" })).toBeNull();
  });

  it("prefers the coupon's campaign on an equal price", () => {
    const twin = makeCampaign({ id: "twin", coupon: "twin", prices: { wv_single_12m: 2994 } });
    const both = makeCatalog({ campaigns: [open, twin] });
    expect(campaignFor(both, "wv_single_12m", { atMs: during, coupon: "twin" })).toMatchObject({
      id: "twin",
    });
    expect(campaignFor(both, "wv_single_12m", { atMs: during })).toMatchObject({ id: "open" });
  });
});

describe("campaignDiscount", () => {
  it("is price − campaign price, only when positive", () => {
    expect(campaignDiscount(5988, 2994)).toBe(2994);
    expect(campaignDiscount(5988, 5988)).toBeNull();
    expect(campaignDiscount(5988, 6000)).toBeNull();
  });
});

describe("couponProblem", () => {
  const catalog = makeCatalog({ campaigns: [makeCampaign()] });
  const check = (coupon: string | undefined, atMs = during, plan = "wv_single_12m") =>
    couponProblem(catalog, plan, "Power (billed monthly)", { atMs, coupon });

  it("accepts no coupon, and a valid one in any case", () => {
    expect(check(undefined)).toBeNull();
    expect(check("  ")).toBeNull();
    expect(check("BLACKFRIDAY2019")).toBeNull();
  });

  it("names what is wrong with the coupon", () => {
    expect(check("nope")).toEqual({
      code: "COUPON_UNKNOWN",
      message: "Coupon 'nope' is not valid. Check the spelling, or continue without it.",
    });
    expect(check("blackfriday2019", to)).toEqual({
      code: "COUPON_EXPIRED",
      message: "Coupon 'blackfriday2019' has expired. Remove it to see the regular price.",
    });
    expect(check("blackfriday2019", from - 1)).toEqual({
      code: "COUPON_NOT_STARTED",
      message: "Coupon 'blackfriday2019' is not active yet. Remove it to see the regular price.",
    });
    expect(check("blackfriday2019", during, "wv_single_1m")).toEqual({
      code: "COUPON_NOT_FOR_PLAN",
      message: "Coupon 'blackfriday2019' does not apply to Power (billed monthly).",
    });
  });
});
