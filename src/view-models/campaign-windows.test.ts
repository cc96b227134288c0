import { describe, expect, it } from "vitest";
import type { BannerEntry } from "../domain/catalog/catalog-schema.ts";
import { makeCampaign, makeSpecCatalog } from "../domain/testing/builders.ts";
import { campaignSegments, plansBanners, windowsAttr } from "./campaign-windows.ts";

const day = 86_400_000;
const t0 = Date.UTC(2026, 10, 27);

const banner = (overrides: Partial<BannerEntry> = {}): BannerEntry => ({
  id: "bf-plans",
  imgUrl: "/banners/blackfriday2019.svg",
  alt: "Black Friday: 40% off",
  location: "plans",
  height: 120,
  segment: "all",
  targetUrl: "/cart#plans",
  key: "bf_plans",
  hotSpots: [],
  ...overrides,
});

describe("campaignSegments", () => {
  const long = makeCampaign({
    id: "long",
    validFrom: t0,
    validTo: t0 + 10 * day,
    prices: { wv_single_12m: 4491 },
  });
  const short = makeCampaign({
    id: "short",
    validFrom: t0 + 2 * day,
    validTo: t0 + 4 * day,
    prices: { wv_single_12m: 2994 },
  });
  const catalog = makeSpecCatalog({ campaigns: [long, short] });

  it("splits overlapping campaigns as the pricing module resolves them (the lowest price wins)", () => {
    const segments = campaignSegments(catalog, "wv_single_12m", t0 - day);
    expect(segments.map((s) => [s.from, s.to, s.campaign.id])).toEqual([
      [t0, t0 + 2 * day, "long"],
      [t0 + 2 * day, t0 + 4 * day, "short"],
      [t0 + 4 * day, t0 + 10 * day, "long"],
    ]);
  });

  it("drops what has ended by the build time and keeps what is still running", () => {
    const segments = campaignSegments(catalog, "wv_single_12m", t0 + 5 * day);
    expect(segments.map((s) => [s.from, s.to, s.campaign.id])).toEqual([
      [t0, t0 + 10 * day, "long"],
    ]);
    expect(campaignSegments(catalog, "wv_single_12m", t0 + 10 * day)).toEqual([]);
  });

  it("has nothing for a plan outside the campaigns", () => {
    expect(campaignSegments(catalog, "wv_single_1m", t0)).toEqual([]);
  });
});

describe("plansBanners", () => {
  const campaign = makeCampaign({
    validFrom: t0,
    validTo: t0 + 4 * day,
    banners: [banner(), banner({ id: "hub", location: "hubDashboard" })],
  });

  it("keeps the plans banners of public campaigns that have not ended, with their window", () => {
    const catalog = makeSpecCatalog({ campaigns: [campaign] });
    expect(plansBanners(catalog, t0 - day)).toEqual([
      {
        src: "/banners/blackfriday2019.svg",
        alt: "Black Friday: 40% off",
        height: 120,
        href: "/cart#plans",
        window: windowsAttr([{ from: t0, to: t0 + 4 * day }]),
        visibleAtBuild: false,
        hotSpots: [],
      },
    ]);
    expect(plansBanners(catalog, t0)[0]?.visibleAtBuild).toBe(true);
    expect(plansBanners(catalog, t0 + 4 * day)).toEqual([]);
  });

  it("places each hot spot in percent of the image, with its own target and name", () => {
    const spotted = makeCampaign({
      validFrom: t0,
      validTo: t0 + 4 * day,
      banners: [
        banner({
          hotSpots: [
            {
              x: 860,
              y: 30,
              width: 240,
              height: 60,
              targetUrl: "/cart?p=buy&product=wv_unloct17_12m#checkout",
              label: "Buy Unlimited",
            },
          ],
        }),
      ],
    });
    const [shown] = plansBanners(makeSpecCatalog({ campaigns: [spotted] }), t0);
    expect(shown?.hotSpots).toEqual([
      {
        href: "/cart?p=buy&product=wv_unloct17_12m#checkout",
        label: "Buy Unlimited",
        left: 71.67,
        top: 25,
        width: 20,
        height: 50,
      },
    ]);
  });

  it("leaves out targeted campaigns", () => {
    const catalog = makeSpecCatalog({ campaigns: [{ ...campaign, targeted: true }] });
    expect(plansBanners(catalog, t0)).toEqual([]);
  });
});
