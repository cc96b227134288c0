import { describe, expect, it } from "vitest";
import {
  makeBand,
  makeCampaign,
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
          makeCampaign({
            products: [
              { code: "wv_single_12m", price: 47.9 },
              { code: "wv_singel_1m", price: 5 },
            ],
          }),
          makeCampaign({ id: "again", validFrom: "2026-11-30T00:00:00Z" }),
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
