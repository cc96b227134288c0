import { describe, expect, it } from "vitest";
import {
  makeExperimentInput,
  makeFamily,
  makeSchoolsFamily,
  makeVariant,
  withExperiments,
  withFamily,
} from "../../src/domain/catalog/testing/builders.ts";
import { memoryFs } from "../core/catalog-fs.ts";
import { endExperiment } from "../core/end-experiment.ts";
import { type Io, plain } from "../core/output.ts";
import { memoryOutputFs } from "../core/output-fs.ts";
import { catalogTexts } from "../testing/catalog-fixture.ts";
import { diffAgainst, formatDiff } from "./diff.ts";
import { formatEndReport } from "./experiment.ts";

const at = (iso: string) => Date.parse(iso);
const io = { style: plain } as Io;

/** Schools priced 374 + 4.99 a seat, the sample-catalogue set 299 + 3.99, with comments. */
function texts(): Record<string, string> {
  const schools = makeSchoolsFamily({
    variants: [
      makeVariant({
        code: "wv_k12_12m",
        term: 12,
        price: 374,
        seatPrice: 4.99,
        seatStructure: "k12-2024-01",
        priceTests: { "sample-catalogue": { price: 299, seatPrice: 3.99 } },
      }),
    ],
  });
  const files = catalogTexts({
    plans: withFamily(schools),
    ...withExperiments(makeExperimentInput()),
  });
  const plan = "catalog/plans/schools.yaml";
  files[plan] =
    `# Schools: priced per seat.\n${files[plan]?.replace("price: 374\n", "price: 374 # list price\n")}`;
  files["catalog/price-tests.yaml"] =
    `# Price tests.\n${files["catalog/price-tests.yaml"]?.replace(/to: (\S+)/, 'to: "2027-04-12T04:00:00Z" # the planned end')}`;
  return files;
}

function end(files: Record<string, string>, id: string, keep: string, when = "2027-03-01") {
  const out = memoryOutputFs();
  const report = endExperiment(
    { dir: "catalog", id, keep, atMs: at(when) },
    { fs: memoryFs(files), out, now: () => at("2027-03-01T12:00:00Z") },
  );
  return { report, written: out.files };
}

describe("catalog experiment end", () => {
  it("with --keep <set> makes the set's prices the default and closes the window, comments kept", async () => {
    const before = texts();
    const { report, written } = end(before, "schools-price-2027", "sample-catalogue");
    expect(report).toMatchObject({
      ok: true,
      edits: [
        { code: "wv_k12_12m", field: "price", before: 37_400, after: 29_900 },
        { code: "wv_k12_12m", field: "seatPrice", before: 499, after: 399 },
      ],
      unchanged: [],
      files: ["catalog/plans/schools.yaml", "catalog/price-tests.yaml"],
    });
    // Only the values change: every comment and every other byte stays.
    expect(written["catalog/plans/schools.yaml"]).toBe(
      before["catalog/plans/schools.yaml"]
        ?.replace("price: 374 # list price", "price: 299 # list price")
        .replace("seatPrice: 4.99", "seatPrice: 3.99"),
    );
    expect(written["catalog/price-tests.yaml"]).toBe(
      before["catalog/price-tests.yaml"]?.replace(
        'to: "2027-04-12T04:00:00Z" # the planned end',
        'to: "2027-03-01T00:00:00Z" # the planned end',
      ),
    );
    expect(await formatEndReport(report, io)).toMatchInlineSnapshot(`
      "✔ experiment schools-price-2027 ends at 2027-03-01T00:00:00Z, keeping sample-catalogue
        wv_k12_12m price 374.00 → 299.00  (catalog/plans/schools.yaml)
          check its comment still holds: # list price
        wv_k12_12m seatPrice 4.99 → 3.99  (catalog/plans/schools.yaml)
      Changed: catalog/plans/schools.yaml, catalog/price-tests.yaml
      Next: catalog diff HEAD shows the price change and its customers; commit, then publish."
    `);
  });

  it("then shows in catalog diff as a price change with the subscriptions it reaches", async () => {
    const before = texts();
    const { written } = end(before, "schools-price-2027", "sample-catalogue");
    const report = await diffAgainst(
      { base: "HEAD", dir: "catalog", atMs: at("2027-03-01") },
      {
        fs: memoryFs({ ...before, ...written }),
        resolveBase: () => ({ fs: memoryFs(before), dir: "catalog", label: "HEAD:catalog" }),
        subscriptions: async () => ({
          source: "test database",
          groups: [
            {
              productCode: "wv_k12_12m",
              seats: 40,
              recurringCampaign: null,
              priceGroup: null,
              count: 12,
            },
            // In the sample-catalogue set already: its price does not change.
            {
              productCode: "wv_k12_12m",
              seats: 40,
              recurringCampaign: null,
              priceGroup: "b",
              count: 5,
            },
          ],
        }),
      },
    );
    expect(report.diff.pricesDown).toMatchObject([
      {
        kind: "plan",
        item: "wv_k12_12m",
        field: "price",
        priceSet: null,
        before: 37_400,
        after: 29_900,
      },
      {
        kind: "plan",
        item: "wv_k12_12m",
        field: "seatPrice",
        priceSet: null,
        before: 499,
        after: 399,
      },
    ]);
    expect(report.impact?.down).toEqual([12, 12]);
    expect(await formatDiff(report, plain)).toMatchInlineSnapshot(`
      "Comparing catalog with HEAD:catalog
      Active subscriptions counted in test database

      Prices down (2)
        wv_k12_12m             374.00 → 299.00  -20.1%  12 active subscriptions
        wv_k12_12m extra seat    4.99 →   3.99  -20.0%  12 active subscriptions"
    `);
  });

  it("with --keep control leaves the prices and only closes the window", async () => {
    const before = texts();
    const { report, written } = end(before, "schools-price-2027", "control");
    expect(report).toMatchObject({ ok: true, edits: [], files: ["catalog/price-tests.yaml"] });
    expect(Object.keys(written)).toEqual(["catalog/price-tests.yaml"]);
    expect(written["catalog/price-tests.yaml"]).toContain(
      'to: "2027-03-01T00:00:00Z" # the planned end',
    );
    expect(await formatEndReport(report, io)).toContain("The default prices stay.");
  });

  it("refuses an unknown experiment, suggesting the closest", () => {
    expect(() => end(texts(), "schools-price-2026", "control")).toThrow(
      "no experiment schools-price-2026 in catalog/price-tests.yaml: did you mean schools-price-2027?\nExperiments: schools-price-2027.",
    );
  });

  it("refuses a set that is not a group of the experiment", () => {
    expect(() => end(texts(), "schools-price-2027", "spring")).toThrow(
      "spring is not a group of experiment schools-price-2027: expected one of control, sample-catalogue",
    );
  });

  it("refuses to keep a set's prices from a time still to come", () => {
    expect(() => end(texts(), "schools-price-2027", "sample-catalogue", "2027-03-02")).toThrow(
      "--at 2027-03-02T00:00:00Z is in the future: with --keep sample-catalogue the default prices change when this catalogue is published, so the experiment ends then",
    );
    // The control's prices do not change, so its end may be set ahead.
    expect(end(texts(), "schools-price-2027", "control", "2027-03-02").report.ok).toBe(true);
  });

  it("refuses an experiment that already ended, and one not started", () => {
    expect(() => end(texts(), "schools-price-2027", "control", "2027-05-01")).toThrow(
      "experiment schools-price-2027 already ended at 2027-04-12T04:00:00Z: there is nothing to end",
    );
    expect(() => end(texts(), "schools-price-2027", "control", "2027-01-01")).toThrow(
      "experiment schools-price-2027 has not started (it starts at 2027-01-11T05:00:00Z)",
    );
  });

  it("writes nothing when the catalogue would not be valid after the change", () => {
    // The set prices Power monthly at 4.00 and yearly at 40.00 (the essentials variants at those
    // plus the add-on); the experiment covers only the monthly plan, so keeping the set would
    // leave the year (59.88) above twelve months (48.00).
    const setPrices = {
      wv_single_1m: 4,
      wv_single_12m: 40,
      wv_single_plus_1m: 23.99,
      wv_single_plus_12m: 159.88,
    };
    const power = makeFamily();
    const files = catalogTexts({
      plans: withFamily(
        makeFamily({
          variants: power.variants.map((v) => {
            const price = setPrices[v.code as keyof typeof setPrices];
            return price === undefined
              ? v
              : { ...v, priceTests: { "sample-catalogue": { price } } };
          }),
        }),
      ),
      ...withExperiments(makeExperimentInput({ plans: ["wv_single_1m"] })),
    });
    const { report, written } = end(files, "schools-price-2027", "sample-catalogue");
    expect(report).toMatchObject({ ok: false, when: "after" });
    expect(!report.ok && report.issues.map((i) => i.code)).toContain("annual-above-monthly");
    expect(written).toEqual({});
  });

  it("writes nothing when the catalogue is not valid", () => {
    const files = texts();
    files["catalog/price-tests.yaml"] =
      files["catalog/price-tests.yaml"]?.replace("share: 50", "share: 40") ?? "";
    const { report, written } = end(files, "schools-price-2027", "control");
    expect(report).toMatchObject({ ok: false, when: "before" });
    expect(written).toEqual({});
  });
});
