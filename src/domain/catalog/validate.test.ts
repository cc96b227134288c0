import { describe, expect, it } from "vitest";
import type { SourceFile } from "./source-file.ts";
import {
  issuesOf,
  lines,
  makeCatalogFiles,
  makeCatalogInput,
  makeFamily,
  makeVariant,
  withFamily,
} from "./testing/builders.ts";
import { validateCatalog } from "./validate.ts";

const withPowerVariant = (variant: Record<string, unknown>) =>
  withFamily(
    makeFamily({ variants: [...makeFamily().variants, variant as ReturnType<typeof makeVariant>] }),
  );

describe("validateCatalog", () => {
  it("returns the normalised catalogue when every file and rule holds", () => {
    const result = validateCatalog(makeCatalogFiles());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.catalog.plans.map((plan) => plan.code)).toEqual([
      "wv_single_1m",
      "wv_single_12m",
      "wv_single_plus_1m",
      "wv_single_plus_12m",
      "wv_k12_12m",
      "wv_edu_trial",
    ]);
    expect(result.warnings).toEqual([]);
  });

  it("names an unknown key and suggests the closest known one", async () => {
    expect(
      await issuesOf({
        plans: withPowerVariant({ code: "wv_single_6m", term: 6, prise: 29.94, price: 29.94 }),
      }),
    ).toMatchInlineSnapshot(`
        [
          "catalog/plans/power.yaml variants[4].prise: unknown key "prise": did you mean "price"?",
        ]
      `);
  });

  it("lists the keys allowed when no known key is close", () => {
    const result = validateCatalog(
      makeCatalogFiles({
        plans: withPowerVariant({ ...makeVariant({ code: "wv_x" }), colour: "red" }),
      }),
    );
    expect(result.ok ? [] : result.issues.map((i) => i.hint)).toMatchInlineSnapshot(`
      [
        "Keys allowed here: code, term, price, recurring, showYearly, seatPrice, seatStructure, essentials, essentialsAddOn, essentialsUpgrade, essentialsDowngrade, legacy, priceTests, assumed.",
      ]
    `);
  });

  it("reports missing fields, with the field's description as a hint", () => {
    const family = { ...makeFamily() } as Record<string, unknown>;
    delete family.maxPublishResolution;
    delete family.capacity;
    const result = validateCatalog(
      makeCatalogFiles({ plans: withFamily(family as ReturnType<typeof makeFamily>) }),
    );
    expect(result.ok ? [] : result.issues).toMatchInlineSnapshot(`
      [
        {
          "code": "missing-field",
          "file": "catalog/plans/power.yaml",
          "hint": "Storage and hours text, for example '20 GB · 30 min/month'",
          "message": "is missing: expected text",
          "path": "capacity",
        },
        {
          "code": "missing-field",
          "file": "catalog/plans/power.yaml",
          "hint": "Maximum publish resolution (2160p is 4K)",
          "message": "is missing: expected one of "720p", "1080p", "2160p"",
          "path": "maxPublishResolution",
        },
      ]
    `);
  });

  it("reports wrong types, values outside a list, and bad numbers", async () => {
    expect(
      await issuesOf({
        plans: withFamily(
          makeFamily({
            name: 42 as unknown as string,
            tier: "personel" as "personal",
            includedSeats: 1.5,
            variants: [
              makeVariant({ code: "wv_single_1m", term: 3 as 1, price: 9.999 }),
              makeVariant({ code: "Wv-Single-12m", price: -1 }),
              makeVariant({ code: "wv_single_plus_12m", price: "59.88" as unknown as number }),
            ],
          }),
        ),
      }),
    ).toMatchInlineSnapshot(`
      [
        "catalog/plans/power.yaml name: expected text, found 42",
        "catalog/plans/power.yaml tier: expected one of "personal", "business", "education", "professional", "unlimited", "playposit", found the text "personel": did you mean "personal"?",
        "catalog/plans/power.yaml includedSeats: expected a whole number, found 1.5",
        "catalog/plans/power.yaml variants[0].term: expected one of 1, 6, 12, found 3",
        "catalog/plans/power.yaml variants[0].price: must have at most two decimals, found 9.999",
        "catalog/plans/power.yaml variants[1].code: must be lower-case letters, digits and underscores, found the text "Wv-Single-12m"",
        "catalog/plans/power.yaml variants[1].price: must not be negative, found -1",
        "catalog/plans/power.yaml variants[2].price: expected a number, found the text "59.88"",
      ]
    `);
  });

  it("reports empty lists and texts, and dates that are not ISO date-times", async () => {
    const input = makeCatalogInput();
    const [campaign] = input.campaigns.campaigns;
    expect(
      await issuesOf({
        campaigns: {
          campaigns: [
            { ...campaign, name: "", validFrom: "27/11/2026", products: [] } as typeof campaign,
          ],
        },
      }),
    ).toMatchInlineSnapshot(`
      [
        "catalog/campaigns.yaml campaigns[0].name: expected non-empty text, found empty text",
        "catalog/campaigns.yaml campaigns[0].validFrom: must be an ISO date-time such as 2026-11-27T00:00:00Z, found the text "27/11/2026"",
        "catalog/campaigns.yaml campaigns[0].products: expected at least 1 entry, found none",
      ]
    `);
  });

  it("reports a file that is not a mapping", async () => {
    expect(await issuesOf({ accounts: [] as never })).toMatchInlineSnapshot(`
      [
        "catalog/accounts.yaml: expected a mapping of keys to values, found an empty list",
      ]
    `);
  });

  it("reports missing files, including a catalogue without plan families", () => {
    const files = makeCatalogFiles().filter(
      (f) => f.kind !== "campaigns.yaml" && f.kind !== "plans/*.yaml",
    );
    const result = validateCatalog(files, { root: "prices" });
    expect(result.ok ? [] : lines(result.issues)).toMatchInlineSnapshot(`
      [
        "prices/campaigns.yaml: is missing: every catalogue has this file",
        "prices/plans/: has no plan families: expected at least one file plans/<family>.yaml",
      ]
    `);
  });

  it("lists the problems of every file at once and says that checks across files wait", () => {
    const files = makeCatalogFiles({ plans: withPowerVariant({ code: "wv_x", term: 1 }) }).map(
      (file): SourceFile =>
        file.kind === "exports.yaml"
          ? { ...file, data: { ...(file.data as object), maxExportMs: 0 } }
          : file,
    );
    const result = validateCatalog(files);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : lines(result.issues)).toMatchInlineSnapshot(`
      [
        "catalog/exports.yaml maxExportMs: expected a number above 0, found 0",
        "catalog/plans/power.yaml variants[4].price: is missing: expected a number",
      ]
    `);
    expect(lines(result.warnings)).toMatchInlineSnapshot(`
      [
        "catalog: checks across files (links, prices, seat bands, campaigns) were skipped because 2 files have problems: fix them and run again",
      ]
    `);
  });

  it("passes on problems found while reading a file", () => {
    const files = makeCatalogFiles().map(
      (file): SourceFile =>
        file.kind === "marketing.yaml"
          ? {
              ...file,
              data: undefined,
              problems: [
                {
                  code: "yaml-syntax",
                  file: file.path,
                  line: 3,
                  path: "",
                  message: "is not valid YAML: x",
                },
              ],
            }
          : file,
    );
    const result = validateCatalog(files);
    expect(result.ok ? [] : lines(result.issues)).toEqual([
      "catalog/marketing.yaml:3: is not valid YAML: x",
    ]);
  });

  it("locates issues on the line the file gives for the field", () => {
    const files = makeCatalogFiles({ plans: withPowerVariant({ code: "wv_x", term: 1 }) }).map(
      (file): SourceFile => ({ ...file, lineOf: (path) => path.length * 10 }),
    );
    const result = validateCatalog(files);
    expect(result.ok ? [] : result.issues.map((i) => [i.path, i.line])).toEqual([
      ["variants[4].price", 30],
    ]);
  });
});
