import { describe, expect, it } from "vitest";
import { issuesOf, makeCampaignInput } from "../testing/builders.ts";

describe("banner ids are unique", () => {
  it("reports a banner id used by two campaigns", async () => {
    const campaigns = [
      makeCampaignInput(),
      makeCampaignInput({ id: "cyber-monday-2026", coupon: "cyber2026" }),
    ];
    expect(await issuesOf({ campaigns: { campaigns } })).toMatchInlineSnapshot(`
      [
        "catalog/campaigns.yaml campaigns[1].banners[0].id: banner id black-friday-plans is already used in campaign black-friday-2026: expected every banner id to be unique",
      ]
    `);
  });
});
