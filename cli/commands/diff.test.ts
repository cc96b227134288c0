import { describe, expect, it } from "vitest";
import {
  makeCampaignInput,
  makeCatalogInput,
  makeFamily,
} from "../../src/domain/catalog/testing/builders.ts";
import { memoryFs } from "../core/catalog-fs.ts";
import { plain } from "../core/output.ts";
import { catalogTexts } from "../testing/catalog-fixture.ts";
import { diffAgainst, formatDiff, formatDiffMarkdown } from "./diff.ts";

const at = Date.UTC(2026, 10, 28);
const power = makeFamily();

function compare(base: Record<string, string>, head: Record<string, string>) {
  return diffAgainst(
    { base: "base", dir: "catalog", atMs: at },
    {
      fs: memoryFs(head),
      resolveBase: () => ({ fs: memoryFs(base), dir: "catalog", label: "main:catalog" }),
    },
  );
}

describe("catalog diff", () => {
  it("says when nothing changes", async () => {
    const report = await compare(catalogTexts(), catalogTexts());
    expect(await formatDiff(report, plain)).toMatchInlineSnapshot(`
      "Comparing catalog with main:catalog
      No changes for customers."
    `);
  });

  it("groups price changes, plans and campaigns", async () => {
    const input = makeCatalogInput();
    const head = catalogTexts({
      plans: input.plans.map((f) =>
        f.family === "power"
          ? makeFamily({
              variants: [
                ...power.variants.map((v) =>
                  v.code === "wv_single_12m"
                    ? { ...v, price: 71.88 }
                    : v.code === "wv_single_plus_12m"
                      ? { ...v, price: 191.76 }
                      : v,
                ),
                { code: "wv_single_6m", term: 6, price: 41.94 },
              ],
            })
          : f,
      ),
      essentials: {
        ...input.essentials,
        addOns: [
          { code: "essentials_1m", term: 1, price: 19.99 },
          { code: "essentials_12m", term: 12, price: 119.88 },
        ],
      },
      campaigns: {
        campaigns: [
          makeCampaignInput({ validFrom: "2026-11-20T00:00:00Z" }),
          makeCampaignInput({
            id: "cyber-monday-2026",
            name: "Cyber Monday 2026",
            coupon: "cyber2026",
            banners: [],
            validFrom: "2026-11-30T00:00:00Z",
            validTo: "2026-12-02T00:00:00Z",
          }),
        ],
      },
    });
    const report = await compare(catalogTexts(), head);
    expect(report.diff.pricesUp.map((c) => c.percent)).toEqual([20, 6.7]);
    expect(await formatDiff(report, plain)).toMatchInlineSnapshot(`
      "Comparing catalog with main:catalog

      Prices up (2)
        wv_single_12m        59.88 →  71.88  +20.0%
        wv_single_plus_12m  179.76 → 191.76  +6.7%

      Plans added (1)
        + wv_single_6m  Power, 6-month term, 41.94

      Campaigns added (1)
        + cyber-monday-2026  Cyber Monday 2026 (coupon cyber2026) 2026-11-30T00:00Z – 2026-12-02T00:00Z

      Campaign windows (1)
        black-friday-2026 moved: 2026-11-20T00:00Z – 2026-12-01T00:00Z (was 2026-11-27T00:00Z – 2026-12-01T00:00Z)"
    `);
    expect(JSON.parse(JSON.stringify(report)).diff.plansAdded).toEqual([
      { code: "wv_single_6m", name: "Power", termDuration: 6, price: 4194 },
    ]);
  });

  it("lists price migrations added, changed and removed, and reads a base that has none", async () => {
    const migration = {
      id: "schools-pre-2024",
      description: "Schools on the older bands move to the current ones.",
      products: ["wv_k12_12m"],
      renewalsFrom: "2027-09-01T04:00:00Z",
    };
    const power = {
      id: "power-2026",
      description: "Power subscribers from before 2026 pay the 2026 price.",
      products: ["wv_single_12m"],
      signedUpBefore: "2026-01-01T00:00:00Z",
      renewalsFrom: "2026-06-01T00:00:00Z",
    };
    const leaving = {
      ...power,
      id: "power-2025",
      signedUpBefore: "2025-01-01T00:00:00Z",
      renewalsFrom: "2025-06-01T00:00:00Z",
    };
    // The base predates price-migrations.yaml: no file at all.
    const first = await compare(
      catalogTexts(),
      catalogTexts({ priceMigrations: { migrations: [migration] } }),
    );
    expect(await formatDiff(first, plain)).toMatchInlineSnapshot(`
      "Comparing catalog with main:catalog

      Price migrations (1)
        + schools-pre-2024  wv_k12_12m: renew at the current price from 2027-09-01T04:00Z"
    `);
    const second = await compare(
      catalogTexts({ priceMigrations: { migrations: [migration, leaving] } }),
      catalogTexts({
        priceMigrations: {
          migrations: [{ ...migration, renewalsFrom: "2028-01-01T05:00:00Z" }, power],
        },
      }),
    );
    expect(await formatDiff(second, plain)).toMatchInlineSnapshot(`
      "Comparing catalog with main:catalog

      Price migrations (3)
        ~ schools-pre-2024  wv_k12_12m: renew at the current price from 2028-01-01T05:00Z (was from 2027-09-01T04:00Z)
        + power-2026  wv_single_12m signed up before 2026-01-01T00:00Z: renew at the current price from 2026-06-01T00:00Z
        - power-2025  wv_single_12m signed up before 2025-01-01T00:00Z: keep the price they signed up at again"
    `);
    expect(second.diff.priceMigrations.map((m) => [m.id, m.change])).toEqual([
      ["schools-pre-2024", "changed"],
      ["power-2026", "added"],
      ["power-2025", "removed"],
    ]);
  });

  it("prints Markdown for a pull request's job summary: prices in a table, the rest as lists", async () => {
    const input = makeCatalogInput();
    const head = catalogTexts({
      plans: input.plans.map((f) =>
        f.family === "power"
          ? makeFamily({
              variants: power.variants.map((v) =>
                v.code === "wv_single_12m"
                  ? { ...v, price: 71.88 }
                  : v.code === "wv_single_plus_12m"
                    ? { ...v, price: 191.76 }
                    : v,
              ),
            })
          : f,
      ),
      campaigns: {
        campaigns: [
          makeCampaignInput({ id: "spring-sale", name: "Spring *sale*", coupon: "spring" }),
        ],
      },
    });
    const report = await compare(catalogTexts(), head);
    expect(await formatDiffMarkdown(report)).toMatchInlineSnapshot(`
      "## Catalogue changes for customers

      Comparing \`catalog\` with \`main:catalog\`.

      ### Prices up (2)

      | what | before | after | change |
      |---|---:|---:|---:|
      | wv\\_single\\_12m | 59.88 | 71.88 | +20.0% |
      | wv\\_single\\_plus\\_12m | 179.76 | 191.76 | +6.7% |

      ### Campaigns added (1)

      - spring-sale: Spring \\*sale\\* (coupon spring) 2026-11-27T00:00Z – 2026-12-01T00:00Z

      ### Campaigns removed (1)

      - black-friday-2026: Black Friday 2026 (coupon blackfriday2026) 2026-11-27T00:00Z – 2026-12-01T00:00Z
      "
    `);
    expect(await formatDiffMarkdown(await compare(catalogTexts(), catalogTexts()))).toContain(
      "No changes for customers.",
    );
  });

  it("refuses to compare with an invalid catalogue, naming its problems", async () => {
    await expect(
      compare(catalogTexts({}, { "exports.yaml": "maxExportMs: 0\n" }), catalogTexts()),
    ).rejects.toThrowErrorMatchingInlineSnapshot(`
      [ExitError: the catalogue at main:catalog is not valid, so there is nothing to compare:
      catalog/exports.yaml:1 singleExports: is missing: expected a list
        One-off exports bought without a plan
      catalog/exports.yaml:1 exportUpgrades: is missing: expected a list
        Extra publish hours (Export Upgrades, hours:price pairs)
      catalog/exports.yaml:1 maxExportMs: expected a number above 0, found 0
      3 problems in 1 file]
    `);
  });
});
