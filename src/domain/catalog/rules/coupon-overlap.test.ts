import { describe, expect, it } from "vitest";
import { issuesOf, makeCampaignInput } from "../testing/builders.ts";

const second = (overrides = {}) =>
  makeCampaignInput({ id: "black-friday-2026-extra", banners: [], ...overrides });

describe("a coupon picks one campaign at any time", () => {
  it("accepts the same coupon in windows that only touch", async () => {
    const campaigns = [
      makeCampaignInput(),
      second({ validFrom: "2026-12-01T00:00:00Z", validTo: "2026-12-05T00:00:00Z" }),
    ];
    expect(await issuesOf({ campaigns: { campaigns } })).toEqual([]);
  });

  it("reports the same coupon in overlapping windows", async () => {
    const campaigns = [
      makeCampaignInput(),
      second({ validFrom: "2026-11-30T00:00:00Z", validTo: "2026-12-05T00:00:00Z" }),
    ];
    expect(await issuesOf({ campaigns: { campaigns } })).toMatchInlineSnapshot(`
      [
        "catalog/campaigns.yaml campaigns[1].coupon: coupon blackfriday2026 is also used by campaign black-friday-2026, whose window overlaps this one from 2026-11-30T00:00:00Z to 2026-12-01T00:00:00Z: expected one campaign per coupon at any time",
      ]
    `);
  });
});
