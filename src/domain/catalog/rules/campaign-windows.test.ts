import { describe, expect, it } from "vitest";
import { issuesOf, makeCampaignInput } from "../testing/builders.ts";

describe("campaign windows", () => {
  it("reports validFrom after validTo", async () => {
    const campaign = makeCampaignInput({
      validFrom: "2026-12-01T00:00:00Z",
      validTo: "2026-11-27T00:00:00Z",
    });
    expect(await issuesOf({ campaigns: { campaigns: [campaign] } })).toMatchInlineSnapshot(`
      [
        "catalog/campaigns.yaml campaigns[0].validTo: validFrom 2026-12-01T00:00:00Z is not before validTo 2026-11-27T00:00:00Z: expected the window to start before it ends",
      ]
    `);
  });

  it("reports an empty window (validFrom equal to validTo)", async () => {
    const campaign = makeCampaignInput({
      validFrom: "2026-12-01T00:00:00Z",
      validTo: "2026-12-01T00:00:00+00:00",
    });
    expect(await issuesOf({ campaigns: { campaigns: [campaign] } })).toHaveLength(1);
  });
});
