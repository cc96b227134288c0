import { describe, expect, it } from "vitest";
import {
  makeBand,
  makeCampaignInput,
  makeCatalogInput,
  makeFamily,
  makeStructure,
} from "../../src/domain/catalog/testing/builders.ts";
import { memoryFs } from "../core/catalog-fs.ts";
import { memoryIo } from "../core/output.ts";
import { catalogTexts } from "../testing/catalog-fixture.ts";
import { formatValidateReport, validate } from "./validate.ts";

async function run(texts: Record<string, string>) {
  const report = await validate("catalog", { fs: memoryFs(texts) });
  return { report, text: await formatValidateReport(report, memoryIo()) };
}

describe("catalog validate", () => {
  it("summarises a valid catalogue in one line", async () => {
    const { report, text } = await run(catalogTexts());
    expect(report.ok).toBe(true);
    expect(text).toMatchInlineSnapshot(
      `"✔ catalog is valid: 6 plans in 3 families, 2 essentials add-ons, 2 single exports, 1 export upgrade, 1 seat structure, 1 campaign, 1 banner, 1 price set, 1 tax rate"`,
    );
  });

  it("lists every problem across files at once, with file, line and field", async () => {
    const input = makeCatalogInput();
    const power = makeFamily();
    const texts = catalogTexts({
      plans: input.plans.map((f) =>
        f.family === "power"
          ? makeFamily({
              variants: power.variants.map((v) =>
                v.code === "wv_single_12m"
                  ? { ...v, price: 119.89 }
                  : v.code === "wv_single_plus_1m"
                    ? { ...v, price: 30 }
                    : v,
              ),
            })
          : f,
      ),
      seatBands: {
        structures: [
          makeStructure({
            minimumSeats: 500,
            bands: [makeBand(), makeBand({ from: 32, to: 100, total: 300 })],
          }),
        ],
      },
      campaigns: {
        campaigns: [
          makeCampaignInput({
            products: [
              { code: "wv_single_12m", price: 47.9 },
              { code: "wv_singel_1m", price: 5 },
            ],
          }),
          makeCampaignInput({ id: "again", validFrom: "2026-11-30T00:00:00Z" }),
        ],
      },
    });
    const { report, text } = await run(texts);
    expect(report.ok).toBe(false);
    expect(text).toMatchInlineSnapshot(`
      "catalog/campaigns.yaml:10 campaigns[0].products[1].code: plan code wv_singel_1m is not defined in catalog/plans/: did you mean wv_single_1m?
      catalog/campaigns.yaml:22 campaigns[1].coupon: coupon blackfriday2026 is also used by campaign black-friday-2026, whose window overlaps this one from 2026-11-30T00:00:00Z to 2026-12-01T00:00:00Z: expected one campaign per coupon at any time
      catalog/campaigns.yaml:29 campaigns[1].banners[0].id: banner id black-friday-plans is already used in campaign black-friday-2026: expected every banner id to be unique
      catalog/plans/power.yaml:19 variants[1].price: wv_single_12m costs 119.89 for 12 months, more a month than wv_single_1m at 9.99: expected at most 119.88 for 12 months
      catalog/plans/power.yaml:23 variants[2].price: price is 30.00 but wv_single_1m (9.99) plus add-on essentials_1m (19.99) is 29.98: expected 29.98
      catalog/plans/power.yaml:29 variants[3].price: price is 179.76 but wv_single_12m (119.89) plus add-on essentials_12m (119.88) is 239.77: expected 239.77
      catalog/seat-bands.yaml:7 structures[0].minimumSeats: minimumSeats is 500 but the bands cover 1-100 seats: expected a seat count within the bands
      catalog/seat-bands.yaml:12 structures[0].bands[1].from: band starts at 32 seats but the band before ends at 30: expected 31 (seat 31 has no price)
      catalog/seat-bands.yaml:14 structures[0].bands[1].total: band 32-100 totals 300.00 for 32 seats, less than 374.00 for 30 seats in the band before: expected the total never to fall as seats rise
      9 problems in 3 files"
    `);
  });

  it("points a typo at its line and suggests the key meant", async () => {
    const texts = catalogTexts(
      {},
      {
        "exports.yaml": "singleExports: []\nexportUpgrades: []\nmaxExportMS: 1800000\n",
      },
    );
    const { report } = await run(texts);
    expect(report.ok ? [] : report.issues).toMatchInlineSnapshot(`
      [
        {
          "code": "missing-field",
          "file": "catalog/exports.yaml",
          "hint": "Longest single export in milliseconds",
          "line": 1,
          "message": "is missing: expected a number",
          "path": "maxExportMs",
        },
        {
          "code": "unknown-key",
          "file": "catalog/exports.yaml",
          "hint": "Keys allowed here: singleExports, exportUpgrades, maxExportMs.",
          "line": 3,
          "message": "unknown key "maxExportMS": did you mean "maxExportMs"?",
          "path": "maxExportMS",
        },
      ]
    `);
  });

  it("reports YAML syntax errors, unknown and missing files, and shape errors together", async () => {
    const texts = catalogTexts(
      {},
      {
        "marketing.yaml": "testimonials:\n  personal: [\nfaqs: {}\n",
        "campaign.yaml": "campaigns: []\n",
        "campaigns.yaml": null,
        "accounts.yaml": "blockedEmailDomains: [ab]\n",
      },
    );
    const { text } = await run(texts);
    expect(text).toMatchInlineSnapshot(`
      "catalog/accounts.yaml:1 blockedEmailDomains[0]: expected at least 3 characters, found the text "ab"
      catalog/campaign.yaml: is not a catalogue file: expected plans/<family>.yaml or one of essentials.yaml, exports.yaml, seat-bands.yaml, campaigns.yaml, price-tests.yaml, tax-rates.yaml, marketing.yaml, accounts.yaml, price-migrations.yaml: did you mean campaigns.yaml?
        Rename the file, or move it out of catalog/ (only README.md and schema/ may sit beside the data).
      catalog/campaigns.yaml: is missing: every catalogue has this file
      catalog/marketing.yaml:3: is not valid YAML: flow sequence in block collection must be sufficiently indented and end with a ]
        Check the indentation, colons and quotes on this line and the one before.
      warning catalog: checks across files (links, prices, seat bands, campaigns) were skipped because 3 files have problems: fix them and run again
      4 problems in 4 files"
    `);
  });
});

// The rule failures cli/main.test.ts used to spawn Node for, one process each: the same catalogues
// and the same printed lines, in-process (main.test.ts keeps one spawn per command and exit code).
describe("catalog validate on broken catalogues", () => {
  it("lists every broken rule as file:line path: message, with hints below (was a spawn in main.test.ts)", async () => {
    const input = makeCatalogInput();
    const { report, text } = await run(
      catalogTexts({
        plans: input.plans.map((f) =>
          f.family === "power"
            ? makeFamily({
                trialProduct: "wv_power_trial",
                variants: makeFamily().variants.map((v) =>
                  v.code === "wv_single_12m"
                    ? { ...v, price: 119.89, priceTests: { sampel: { price: 50 } } }
                    : v.code === "wv_single_plus_12m"
                      ? { ...v, essentialsDowngrade: "wv_single_1m" }
                      : v,
                ),
              })
            : f,
        ),
        seatBands: {
          structures: [
            makeStructure({
              bands: [
                makeBand({ from: 2 }),
                makeBand({ from: 25, to: 100, total: 300, perSeat: 5 }),
              ],
            }),
            makeStructure({
              id: "k12-2019",
              minimumSeats: 200,
              appliesTo: ["wv_k12_12m", "wv_k12_6m"],
            }),
          ],
        },
        campaigns: {
          campaigns: [
            makeCampaignInput({
              validFrom: "2026-12-02T00:00:00Z",
              products: [{ code: "wv_single_12m", price: 60 }],
            }),
            makeCampaignInput({ id: "black-friday-2026-b", validFrom: "2026-11-01T00:00:00Z" }),
          ],
        },
      }),
    );
    expect(report.ok).toBe(false);
    expect(text).toMatchInlineSnapshot(`
      "catalog/campaigns.yaml:6 campaigns[0].validTo: validFrom 2026-12-02T00:00:00Z is not before validTo 2026-12-01T00:00:00Z: expected the window to start before it ends
      catalog/campaigns.yaml:27 campaigns[1].banners[0].id: banner id black-friday-plans is already used in campaign black-friday-2026: expected every banner id to be unique
      catalog/plans/power.yaml:19 variants[1].price: wv_single_12m costs 119.89 for 12 months, more a month than wv_single_1m at 9.99: expected at most 119.88 for 12 months
      catalog/plans/power.yaml:20 variants[1].essentialsUpgrade: essentialsUpgrade is wv_single_plus_12m, whose essentialsDowngrade is wv_single_1m: expected wv_single_12m
        The plan with essentials and the plan without link to each other.
      catalog/plans/power.yaml:22 variants[1].priceTests.sampel: price set "sampel" is not defined in price-tests.yaml
        Price sets defined: sample-catalogue.
      catalog/plans/power.yaml:32 variants[3].price: price is 179.76 but wv_single_1m (9.99) plus add-on essentials_12m (119.88) is 129.87: expected 129.87
      catalog/plans/power.yaml:35 variants[3].essentialsDowngrade: essentialsDowngrade is wv_single_1m, whose essentialsUpgrade is wv_single_plus_1m: expected wv_single_plus_12m
        The plan with essentials and the plan without link to each other.
      catalog/plans/power.yaml:36 trialProduct: trial product wv_power_trial is not defined in catalog/plans/
      catalog/seat-bands.yaml:9 structures[0].bands[0].from: the first band starts at 2 seats: expected 1
        Bands cover every seat count from 1 upwards; minimumSeats says how few can be ordered.
      catalog/seat-bands.yaml:12 structures[0].bands[1].from: band starts at 25 seats but the band before ends at 30: expected 31 (seats 25-30 are in two bands)
      catalog/seat-bands.yaml:15 structures[0].bands[1].perSeat: band 25-100 has both total and perSeat: expected exactly one
        total is the order total for any seat count in the band; perSeat prices each seat in the band on top of the band before.
      catalog/seat-bands.yaml:18 structures[1].default: wv_k12_12m has 2 default seat structures (k12-2024-01, k12-2019): expected exactly one with default: true
      catalog/seat-bands.yaml:21 structures[1].appliesTo[1]: plan code wv_k12_6m is not defined in catalog/plans/: did you mean wv_k12_12m?
      catalog/seat-bands.yaml:22 structures[1].minimumSeats: minimumSeats is 200 but the bands cover 1-100 seats: expected a seat count within the bands
      14 problems in 3 files"
    `);
  });

  it("lists the other broken rules: gaps, falling totals, references, codes, coupons (was a spawn in main.test.ts)", async () => {
    const input = makeCatalogInput();
    const power = makeFamily();
    const { report, text } = await run(
      catalogTexts({
        plans: input.plans.map((f) =>
          f.family === "power"
            ? makeFamily({
                variants: power.variants.map((v) =>
                  v.code === "wv_single_plus_1m"
                    ? { ...v, essentialsAddOn: "essentials_12m" }
                    : v.code === "wv_single_plus_12m"
                      ? { ...v, essentialsAddOn: undefined }
                      : v.code === "wv_single_1m"
                        ? { ...v, seatStructure: "k12-2024" }
                        : v,
                ),
              })
            : f,
        ),
        essentials: {
          ...input.essentials,
          addOns: [...input.essentials.addOns, { code: "single_export_hd", term: 1, price: 1 }],
        },
        seatBands: {
          structures: [
            makeStructure({
              bands: [
                makeBand(),
                makeBand({ from: 40, to: 50, total: 300 }),
                makeBand({ from: 51, to: 100, total: undefined }),
              ],
            }),
          ],
        },
        campaigns: {
          campaigns: [
            makeCampaignInput({
              products: [
                { code: "wv_single_12m", price: 61 },
                { code: "wv_single_24m", price: 5 },
              ],
            }),
            makeCampaignInput({
              id: "black-friday-2026-b",
              banners: [],
              validFrom: "2026-11-30T00:00:00Z",
            }),
          ],
        },
      }),
    );
    expect(report.ok).toBe(false);
    expect(text).toMatchInlineSnapshot(`
      "catalog/campaigns.yaml:9 campaigns[0].products[0].price: campaign price 61.00 for wv_single_12m is not below its price 59.88: expected a lower price
      catalog/campaigns.yaml:10 campaigns[0].products[1].code: plan code wv_single_24m is not defined in catalog/plans/: did you mean wv_single_1m?
      catalog/campaigns.yaml:22 campaigns[1].coupon: coupon blackfriday2026 is also used by campaign black-friday-2026, whose window overlaps this one from 2026-11-30T00:00:00Z to 2026-12-01T00:00:00Z: expected one campaign per coupon at any time
      catalog/exports.yaml:2 singleExports[0].code: code single_export_hd is already used by an essentials add-on: expected every product code to be unique
      catalog/plans/power.yaml:17 variants[0].seatStructure: seat structure "k12-2024" is not defined in seat-bands.yaml: did you mean "k12-2024-01"?
        Structures defined: k12-2024-01.
      catalog/plans/power.yaml:24 variants[2].price: price is 29.98 but wv_single_1m (9.99) plus add-on essentials_12m (119.88) is 129.87: expected 129.87
      catalog/plans/power.yaml:26 variants[2].essentialsAddOn: essentials add-on essentials_12m is a 12-month add-on but this plan has a 1-month term: expected the add-on of the same term
      catalog/plans/power.yaml:31 variants[3].essentials: essentials is true but essentialsAddOn is missing: expected the code of the add-on included
      catalog/seat-bands.yaml:12 structures[0].bands[1].from: band starts at 40 seats but the band before ends at 30: expected 31 (seats 31-39 have no price)
      catalog/seat-bands.yaml:14 structures[0].bands[1].total: band 40-50 totals 300.00 for 40 seats, less than 374.00 for 30 seats in the band before: expected the total never to fall as seats rise
      catalog/seat-bands.yaml:15 structures[0].bands[2].from: band 51-100 has neither total nor perSeat: expected exactly one
        total is the order total for any seat count in the band; perSeat prices each seat in the band on top of the band before.
      warning catalog/essentials.yaml:4 addOns[0].code: essentials add-on essentials_1m is not included in any plan
      warning catalog/essentials.yaml:10 addOns[2].code: essentials add-on single_export_hd is not included in any plan
      11 problems in 4 files"
    `);
  });

  it("reports negative amounts and amounts with more than two decimals, skipping the checks across files (was a spawn in main.test.ts)", async () => {
    const input = makeCatalogInput();
    const { report, text } = await run(
      catalogTexts({
        exports: {
          ...input.exports,
          singleExports: [
            { code: "single_export_hd", name: "HD export", resolution: "1080p", price: -2.99 },
          ],
          exportUpgrades: [{ code: "export_upgrade_30m", hours: 0.5, price: 5.999 }],
        },
      }),
    );
    expect(report.ok).toBe(false);
    expect(text).toMatchInlineSnapshot(`
      "catalog/exports.yaml:5 singleExports[0].price: must not be negative, found -2.99
      catalog/exports.yaml:9 exportUpgrades[0].price: must have at most two decimals, found 5.999
      warning catalog: checks across files (links, prices, seat bands, campaigns) were skipped because 1 file has problems: fix them and run again
      2 problems in 1 file"
    `);
  });
});
