import { describe, expect, it } from "vitest";
import { memoryFs } from "./catalog-fs.ts";
import { parseSource, readCatalog } from "./read-catalog.ts";
import { displayDir } from "./read-texts.ts";

const yaml = `# a comment
family: power
variants:
  - code: wv_single_1m
    term: 1
  - code: wv_single_12m
    priceTests:
      sample: { price: 47.88 }
`;

describe("parseSource", () => {
  it("maps field paths to the line of the key or list item", () => {
    const file = parseSource("catalog/plans/power.yaml", "plans/*.yaml", yaml);
    expect(file.problems).toBeUndefined();
    expect(file.lineOf([])).toBe(2);
    expect(file.lineOf(["family"])).toBe(2);
    expect(file.lineOf(["variants"])).toBe(3);
    expect(file.lineOf(["variants", 0])).toBe(4);
    expect(file.lineOf(["variants", 0, "term"])).toBe(5);
    expect(file.lineOf(["variants", 1, "priceTests", "sample", "price"])).toBe(8);
  });

  it("falls back to the nearest ancestor for a field that is not in the file", () => {
    const file = parseSource("catalog/plans/power.yaml", "plans/*.yaml", yaml);
    expect(file.lineOf(["variants", 1, "price"])).toBe(6);
    expect(file.lineOf(["variants", 7, "price"])).toBe(3);
  });

  it("turns YAML syntax errors into issues with the line, never a throw", () => {
    const file = parseSource(
      "catalog/exports.yaml",
      "exports.yaml",
      "maxExportMs: 1\nsingleExports:\n  - code: a\n   name: b\nmaxExportMs: 2\n",
    );
    expect(file.data).toBeUndefined();
    expect(file.problems?.map((p) => `${p.line}: ${p.message}`)).toMatchInlineSnapshot(`
      [
        "4: is not valid YAML: sequence item without - indicator",
        "5: is not valid YAML: map keys must be unique",
      ]
    `);
  });

  it("turns an alias without its anchor into an issue at the alias, never a throw", () => {
    const file = parseSource(
      "catalog/accounts.yaml",
      "accounts.yaml",
      "blockedEmailDomains:\n  - a.test\nschoolDistricts: *districts\n",
    );
    expect(file.data).toBeUndefined();
    expect(file.problems?.map((p) => `${p.line}: ${p.message}`)).toEqual([
      expect.stringMatching(/^3: is not valid YAML: .*alias/i),
    ]);
  });

  it("reads an empty file as null", () => {
    expect(parseSource("catalog/accounts.yaml", "accounts.yaml", "").data).toBeNull();
  });
});

describe("readCatalog", () => {
  it("reads every data file with its kind, skipping README.md and schema/", () => {
    const fs = memoryFs({
      "catalog/README.md": "# docs",
      "catalog/schema/plan-family.schema.json": "{}",
      "catalog/plans/power.yaml": "family: power\n",
      "catalog/essentials.yaml": "name: Essentials\n",
    });
    const { files, issues } = readCatalog(fs, "catalog/");
    expect(files.map((f) => [f.path, f.kind, f.data])).toEqual([
      ["catalog/essentials.yaml", "essentials.yaml", { name: "Essentials" }],
      ["catalog/plans/power.yaml", "plans/*.yaml", { family: "power" }],
    ]);
    expect(issues).toEqual([]);
  });

  it("reports files of no known kind", () => {
    const fs = memoryFs({
      "catalog/campaign.yaml": "campaigns: []\n",
      "catalog/plans/power.yml": "family: power\n",
      "catalog/plans/old/power.yaml": "family: power\n",
    });
    expect(
      readCatalog(fs, "catalog").issues.map((i) => `${i.file}: ${i.message}`),
    ).toMatchInlineSnapshot(`
      [
        "catalog/campaign.yaml: is not a catalogue file: expected plans/<family>.yaml or one of essentials.yaml, exports.yaml, seat-bands.yaml, campaigns.yaml, price-tests.yaml, tax-rates.yaml, marketing.yaml, accounts.yaml, price-migrations.yaml: did you mean campaigns.yaml?",
        "catalog/plans/old/power.yaml: is not a catalogue file: expected plans/<family>.yaml or one of essentials.yaml, exports.yaml, seat-bands.yaml, campaigns.yaml, price-tests.yaml, tax-rates.yaml, marketing.yaml, accounts.yaml, price-migrations.yaml: did you mean plans/power.yaml?",
        "catalog/plans/power.yml: is not a catalogue file: expected plans/<family>.yaml or one of essentials.yaml, exports.yaml, seat-bands.yaml, campaigns.yaml, price-tests.yaml, tax-rates.yaml, marketing.yaml, accounts.yaml, price-migrations.yaml: did you mean plans/power.yaml?",
      ]
    `);
  });
});

describe("displayDir", () => {
  it("shows folders without ./ or a trailing slash", () => {
    expect(displayDir("./catalog/")).toBe("catalog");
    expect(displayDir("/tmp/x/")).toBe("/tmp/x");
    expect(displayDir("./")).toBe(".");
  });
});
