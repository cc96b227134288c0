import { describe, expect, it } from "vitest";
import { diffCatalogs, isEmptyDiff } from "./diff.ts";
import {
  type CatalogInput,
  makeBand,
  makeCampaignInput,
  makeCatalogFiles,
  makeCatalogInput,
  makeFamily,
  makeStructure,
  makeTrialFamily,
} from "./testing/builders.ts";
import { validateCatalog } from "./validate.ts";

function catalogOf(overrides: Partial<CatalogInput> = {}) {
  const result = validateCatalog(makeCatalogFiles(overrides));
  if (!result.ok) throw new Error(result.issues.map((i) => `${i.path}: ${i.message}`).join("\n"));
  return result.catalog;
}

const power = makeFamily();
const repriced = (prices: Record<string, number>) =>
  makeCatalogInput().plans.map((f) =>
    f.family === "power"
      ? makeFamily({
          variants: power.variants.map((v) => ({ ...v, price: prices[v.code] ?? v.price })),
        })
      : f,
  );
const at = Date.UTC(2026, 10, 28);

describe("diffCatalogs", () => {
  it("finds nothing between equal catalogues", () => {
    expect(isEmptyDiff(diffCatalogs(catalogOf(), catalogOf(), at))).toBe(true);
  });

  it("reports prices up and down with percentages", () => {
    const after = catalogOf({
      plans: repriced({
        wv_single_12m: 71.88,
        wv_single_plus_12m: 191.76,
        wv_single_1m: 8.99,
        wv_single_plus_1m: 28.98,
      }),
    });
    const diff = diffCatalogs(catalogOf(), after, at);
    expect(diff.pricesUp.map((c) => [c.item, c.field, c.before, c.after, c.percent])).toEqual([
      ["wv_single_12m", "price", 5988, 7188, 20],
      ["wv_single_plus_12m", "price", 17976, 19176, 6.7],
    ]);
    expect(diff.pricesDown.map((c) => [c.item, c.before, c.after, c.percent])).toEqual([
      ["wv_single_1m", 999, 899, -10],
      ["wv_single_plus_1m", 2998, 2898, -3.3],
    ]);
  });

  it("reports price-set, essentials, export and seat-band prices", () => {
    const input = makeCatalogInput();
    const after = catalogOf({
      plans: input.plans.map((f) =>
        f.family === "schools"
          ? {
              ...f,
              variants: f.variants.map((v) => ({
                ...v,
                priceTests: { "sample-catalogue": { price: 319 } },
              })),
            }
          : f,
      ),
      exports: {
        ...input.exports,
        singleExports: input.exports.singleExports.map((e) => ({ ...e, price: e.price + 1 })),
      },
      seatBands: {
        structures: [
          makeStructure({
            bands: [makeBand(), makeBand({ from: 31, to: 100, total: undefined, perSeat: 3.99 })],
          }),
        ],
      },
    });
    const diff = diffCatalogs(catalogOf(), after, at);
    expect(
      [...diff.pricesUp, ...diff.pricesDown].map((c) => [
        c.kind,
        c.item,
        c.field,
        c.priceSet,
        c.seats,
        c.percent,
      ]),
    ).toEqual([
      ["plan", "wv_k12_12m", "price", "sample-catalogue", null, 6.7],
      ["export", "single_export_hd", "price", null, null, 33.4],
      ["export", "single_export_4k", "price", null, null, 20],
      ["seatBand", "k12-2024-01", "perSeat", null, "31-100", -20],
    ]);
  });

  it("reports an essentials add-on price once, beside the plan prices that include it", () => {
    const input = makeCatalogInput();
    const after = catalogOf({
      plans: repriced({ wv_single_plus_1m: 31.98 }),
      essentials: {
        ...input.essentials,
        addOns: [
          { code: "essentials_1m", term: 1, price: 21.99 },
          { code: "essentials_12m", term: 12, price: 119.88 },
        ],
      },
    });
    const diff = diffCatalogs(catalogOf(), after, at);
    expect(diff.pricesUp.map((c) => [c.kind, c.item, c.before, c.after])).toEqual([
      ["plan", "wv_single_plus_1m", 2998, 3198],
      ["essentials", "essentials_1m", 1999, 2199],
    ]);
  });

  it("reports plans added and removed, and changed band edges", () => {
    const input = makeCatalogInput();
    const after = catalogOf({
      plans: [
        ...input.plans
          .map((f) => (f.family === "schools" ? { ...f, trialProduct: "wv_new_trial" } : f))
          .filter((f) => f.family !== "education-trial"),
        makeTrialFamily({
          family: "new-trial",
          variants: [{ code: "wv_new_trial", term: 1, price: 0 }],
        }),
      ],
      seatBands: {
        structures: [
          makeStructure({
            bands: [makeBand(), makeBand({ from: 31, to: 200, total: undefined, perSeat: 4.99 })],
          }),
        ],
      },
    });
    const diff = diffCatalogs(catalogOf(), after, at);
    expect(diff.plansAdded.map((p) => p.code)).toEqual(["wv_new_trial"]);
    expect(diff.plansRemoved.map((p) => p.code)).toEqual(["wv_edu_trial"]);
    expect(diff.seatBands).toEqual([
      { structure: "k12-2024-01", before: ["1-30", "31-100"], after: ["1-30", "31-200"] },
    ]);
  });

  it("reports campaigns added, removed, and windows that opened, closed or moved", () => {
    const before = catalogOf({
      campaigns: {
        campaigns: [
          makeCampaignInput({
            id: "late",
            coupon: "late",
            banners: [],
            validFrom: "2026-12-01T00:00:00Z",
            validTo: "2026-12-05T00:00:00Z",
          }),
          makeCampaignInput({ id: "open", coupon: "open", banners: [] }),
          makeCampaignInput({
            id: "future",
            coupon: "future",
            banners: [],
            validFrom: "2027-01-01T00:00:00Z",
            validTo: "2027-01-05T00:00:00Z",
          }),
          makeCampaignInput({ id: "gone", coupon: "gone", banners: [] }),
        ],
      },
    });
    const after = catalogOf({
      campaigns: {
        campaigns: [
          makeCampaignInput({
            id: "late",
            coupon: "late",
            banners: [],
            validFrom: "2026-11-27T00:00:00Z",
            validTo: "2026-12-05T00:00:00Z",
          }),
          makeCampaignInput({
            id: "open",
            coupon: "open",
            banners: [],
            validTo: "2026-11-28T00:00:00Z",
          }),
          makeCampaignInput({
            id: "future",
            coupon: "future",
            banners: [],
            validFrom: "2027-02-01T00:00:00Z",
            validTo: "2027-02-05T00:00:00Z",
          }),
          makeCampaignInput({ id: "new", coupon: "new", banners: [] }),
        ],
      },
    });
    const diff = diffCatalogs(before, after, at);
    expect(diff.campaignWindows.map((c) => [c.id, c.change])).toEqual([
      ["late", "opened"],
      ["open", "closed"],
      ["future", "moved"],
    ]);
    expect(diff.campaignsAdded.map((c) => c.id)).toEqual(["new"]);
    expect(diff.campaignsRemoved.map((c) => c.id)).toEqual(["gone"]);
  });

  it("reports campaign price changes", () => {
    const before = catalogOf();
    const after = catalogOf({
      campaigns: {
        campaigns: [makeCampaignInput({ products: [{ code: "wv_single_12m", price: 41.92 }] })],
      },
    });
    expect(
      diffCatalogs(before, after, at).pricesDown.map((c) => [
        c.kind,
        c.item,
        c.field,
        c.before,
        c.after,
      ]),
    ).toEqual([["campaign", "black-friday-2026", "wv_single_12m", 4790, 4192]]);
  });
});
