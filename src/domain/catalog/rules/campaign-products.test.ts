import { describe, expect, it } from "vitest";
import { issuesOf, makeCampaignInput } from "../testing/builders.ts";

describe("campaign products", () => {
  it("reports a product that is not a plan, suggesting the closest code", async () => {
    const campaign = makeCampaignInput({ products: [{ code: "wv_singel_12m", price: 47.9 }] });
    expect(await issuesOf({ campaigns: { campaigns: [campaign] } })).toMatchInlineSnapshot(`
      [
        "catalog/campaigns.yaml campaigns[0].products[0].code: plan code wv_singel_12m is not defined in catalog/plans/: did you mean wv_single_12m?",
      ]
    `);
  });

  it("reports a campaign price that is not below the plan's price", async () => {
    const campaign = makeCampaignInput({
      products: [
        { code: "wv_single_12m", price: 59.88 },
        { code: "wv_single_1m", price: 12 },
      ],
    });
    expect(await issuesOf({ campaigns: { campaigns: [campaign] } })).toMatchInlineSnapshot(`
      [
        "catalog/campaigns.yaml campaigns[0].products[0].price: campaign price 59.88 for wv_single_12m is not below its price 59.88: expected a lower price",
        "catalog/campaigns.yaml campaigns[0].products[1].price: campaign price 12.00 for wv_single_1m is not below its price 9.99: expected a lower price",
      ]
    `);
  });
});
