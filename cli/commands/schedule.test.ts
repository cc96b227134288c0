import { describe, expect, it } from "vitest";
import {
  makeCampaignInput,
  makeExperimentInput,
  withExperiments,
} from "../../src/domain/catalog/testing/builders.ts";
import { memoryFs } from "../core/catalog-fs.ts";
import { catalogTexts } from "../testing/catalog-fixture.ts";
import { formatSchedule, schedule } from "./schedule.ts";

const at = (iso: string) => Date.parse(iso);

describe("catalog schedule", () => {
  it("lists the window edges after a time, soonest first, an edge at that time included", async () => {
    const texts = catalogTexts({
      campaigns: {
        campaigns: [
          makeCampaignInput({
            id: "bf",
            coupon: "bf26",
            validFrom: "2026-11-27T05:00:00Z",
            validTo: "2026-12-01T05:00:00Z",
          }),
          makeCampaignInput({
            id: "old",
            coupon: "old",
            banners: [],
            validFrom: "2020-01-01T00:00:00Z",
            validTo: "2020-02-01T00:00:00Z",
          }),
        ],
      },
    });
    const report = await schedule(
      { dir: "catalog", atMs: at("2026-11-27T05:00:00Z") },
      { fs: memoryFs(texts) },
    );
    if (!report.ok) throw new Error("invalid");
    expect(report.edges.map((e) => [new Date(e.at).toISOString(), e.edge, e.campaign])).toEqual([
      ["2026-11-27T05:00:00.000Z", "opens", "bf"],
      ["2026-12-01T05:00:00.000Z", "closes", "bf"],
    ]);
    expect(formatSchedule(report)).toContain("2026-12-01T05:00:00Z  closes  bf");
    const later = await schedule(
      { dir: "catalog", atMs: at("2027-01-01") },
      { fs: memoryFs(texts) },
    );
    expect(later.ok && formatSchedule(later)).toBe(
      "No campaign or experiment window opens or closes after 2027-01-01T00:00:00Z.",
    );
  });

  it("lists experiment window edges (starts, ends) beside campaign edges", async () => {
    const texts = catalogTexts({
      campaigns: {
        campaigns: [
          makeCampaignInput({
            id: "spring",
            name: "Spring",
            coupon: "spring27",
            validFrom: "2027-03-01T05:00:00Z",
            validTo: "2027-03-08T05:00:00Z",
          }),
        ],
      },
      ...withExperiments(makeExperimentInput()),
    });
    const report = await schedule(
      { dir: "catalog", atMs: at("2027-01-01") },
      { fs: memoryFs(texts) },
    );
    if (!report.ok) throw new Error("invalid");
    expect(report.experimentEdges).toEqual([
      {
        at: at("2027-01-11T05:00:00Z"),
        edge: "starts",
        experiment: "schools-price-2027",
        plans: ["wv_k12_12m"],
      },
      {
        at: at("2027-04-12T04:00:00Z"),
        edge: "ends",
        experiment: "schools-price-2027",
        plans: ["wv_k12_12m"],
      },
    ]);
    expect(formatSchedule(report)).toMatchInlineSnapshot(`
      "2027-01-11T05:00:00Z  starts  experiment schools-price-2027 (wv_k12_12m)
      2027-03-01T05:00:00Z  opens   spring (Spring, coupon spring27)
      2027-03-08T05:00:00Z  closes  spring (Spring, coupon spring27)
      2027-04-12T04:00:00Z  ends    experiment schools-price-2027 (wv_k12_12m)"
    `);
    // Once started, only its end is ahead.
    const running = await schedule(
      { dir: "catalog", atMs: at("2027-03-09") },
      { fs: memoryFs(texts) },
    );
    expect(running.ok && formatSchedule(running)).toBe(
      "2027-04-12T04:00:00Z  ends    experiment schools-price-2027 (wv_k12_12m)",
    );
  });

  it("reports an invalid catalogue", async () => {
    const report = await schedule(
      { dir: "catalog", atMs: 0 },
      { fs: memoryFs(catalogTexts({}, { "campaigns.yaml": "campaigns: [" })) },
    );
    expect(report.ok).toBe(false);
  });
});
