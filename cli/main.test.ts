// The CLI, run as the pricing team runs it (the bundle `npx catalog` runs, built from the current
// sources: cli/testing/bundle.ts): exit codes and output on catalogue folders written to a
// temporary directory. That the bundle answers as the TypeScript sources do is
// scripts/build-cli.test.ts's. Core behaviour is tested beside each command; this checks
// the shell around it (arguments, printing, exit codes, no stack traces for bad data).
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makeCatalogInput } from "../src/domain/catalog/testing/builders.ts";
import { currentBundle } from "./testing/bundle.ts";
import { catalogTexts, writeTempFolder } from "./testing/catalog-fixture.ts";

// Each test spawns Node several times: slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

const root = fileURLToPath(new URL("..", import.meta.url));
// The bundle starts in a third of the time the sources take (0.19 against 0.64 CPU s a run).
let main = "";
beforeAll(async () => {
  main = join(await currentBundle(), "catalog.cjs");
}, 60_000);
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A catalogue folder (as `dir/catalog`) in a fresh temporary directory. */
function fixture(texts: Record<string, string>): string {
  const dir = writeTempFolder(texts);
  folders.push(dir);
  return dir;
}

function run(args: string[], cwd: string, env: Record<string, string> = {}, entry = main) {
  const result = spawnSync(process.execPath, [entry, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "", FORCE_COLOR: "", ...env },
  });
  const clean = (text: string) => text.replaceAll(cwd, "<tmp>");
  return { code: result.status, stdout: clean(result.stdout), stderr: clean(result.stderr) };
}

describe("catalog validate", () => {
  it("exits 0 with a one-line summary for a valid catalogue", () => {
    const cwd = fixture(catalogTexts());
    const result = run(["validate"], cwd);
    expect(result).toMatchInlineSnapshot(`
      {
        "code": 0,
        "stderr": "",
        "stdout": "✔ catalog is valid: 6 plans in 3 families, 2 essentials add-ons, 2 single exports, 1 export upgrade, 1 seat structure, 1 campaign, 1 banner, 1 price set, 1 tax rate
      ",
      }
    `);
  });

  it("exits 1 on YAML syntax errors and unknown keys, without a stack trace", () => {
    const cwd = fixture(
      catalogTexts(
        {},
        {
          "exports.yaml":
            "singleExports: []\nexportUpgrades: []\nmaxExportMs: 1800000\nmaxExportMS: 1\n",
          "marketing.yaml": "testimonials: {\n",
          "notes.txt": "hello",
        },
      ),
    );
    const result = run(["validate", "catalog"], cwd);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    expect(result.stdout).not.toMatch(/\n\s+at /);
    expect(result.stdout).toMatchInlineSnapshot(`
      "catalog/exports.yaml:4 maxExportMS: unknown key "maxExportMS": did you mean "maxExportMs"?
        Keys allowed here: singleExports, exportUpgrades, maxExportMs.
      catalog/marketing.yaml:2: is not valid YAML: flow map in block collection must be sufficiently indented and end with a }
        Check the indentation, colons and quotes on this line and the one before.
      catalog/notes.txt: is not a catalogue file: expected plans/<family>.yaml or one of essentials.yaml, exports.yaml, seat-bands.yaml, campaigns.yaml, price-tests.yaml, tax-rates.yaml, marketing.yaml, accounts.yaml, price-migrations.yaml
        Rename the file, or move it out of catalog/ (only README.md and schema/ may sit beside the data).
      warning catalog: checks across files (links, prices, seat bands, campaigns) were skipped because 2 files have problems: fix them and run again
      3 problems in 3 files
      "
    `);
  });

  it("prints JSON with --json", () => {
    const cwd = fixture(catalogTexts({}, { "campaigns.yaml": null }));
    const result = run(["validate", "--json"], cwd);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: false,
      issues: [
        {
          code: "missing-file",
          file: "catalog/campaigns.yaml",
          path: "",
          message: "is missing: every catalogue has this file",
        },
      ],
    });
  });

  it("exits 1 with a message when the folder does not exist", () => {
    const cwd = fixture({ "x.txt": "" });
    expect(run(["validate", "prices"], cwd)).toMatchInlineSnapshot(`
      {
        "code": 1,
        "stderr": "no catalogue folder at prices: expected a folder of YAML files
      ",
        "stdout": "",
      }
    `);
  });
});

describe("catalog build", () => {
  it("fails --check until built, then passes", () => {
    const cwd = fixture(catalogTexts());
    const check = run(["build", "--check"], cwd);
    expect(check.code).toBe(1);
    expect(check.stdout.split("\n").slice(0, 3)).toMatchInlineSnapshot(`
      [
        "src/generated/catalog.json is missing: run npm run catalog:build",
        "src/generated/catalog-version.json is missing: run npm run catalog:build",
        "src/generated/catalog.ts is missing: run npm run catalog:build",
      ]
    `);
    expect(run(["build"], cwd).code).toBe(0);
    expect(run(["build", "--check"], cwd)).toMatchInlineSnapshot(`
      {
        "code": 0,
        "stderr": "",
        "stdout": "✔ 13 generated files are up to date
      ",
      }
    `);
  });
});

describe("catalog quote", () => {
  it("prints the breakdown of a shipped plan", () => {
    const result = run(["quote", "--plan", "wv_single_12m"], root);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("59.88 per year");
    expect(result.stdout).toContain("4.99/month");
  });

  it("exits 1 with the reason on a bad request, on stderr", () => {
    // One refusal end to end; every kind of refusal and its message: quote.test.ts.
    const result = run(["quote", "--plan", "wv_k12_12m", "--seats", "12"], root);
    expect(result).toMatchInlineSnapshot(`
      {
        "code": 1,
        "stderr": "Schools needs at least 30 seats; you asked for 12.
      ",
        "stdout": "",
      }
    `);
  });

  it("prints JSON with --json", () => {
    const result = run(["quote", "wv_bizoct17_12m", "--seats", "4", "--json"], root);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: true,
      quote: { total: 44388 + 23988, extraSeats: 1 },
    });
  });
});

describe("catalog diff", () => {
  it("compares with a base folder and exits 0", () => {
    const base = fixture(catalogTexts());
    const input = makeCatalogInput();
    const cwd = fixture(
      catalogTexts({
        exports: {
          ...input.exports,
          singleExports: input.exports.singleExports.map((e) => ({ ...e, price: 3.99 })),
        },
      }),
    );
    const result = run(["diff", join(base, "catalog"), "--at", "2026-01-01"], cwd);
    expect(result.code).toBe(0);
    expect(result.stdout.replace(base, "<base>")).toMatchInlineSnapshot(`
      "Comparing catalog with <base>/catalog

      Prices up (1)
        export single_export_hd  2.99 → 3.99  +33.4%

      Prices down (1)
        export single_export_4k  4.99 → 3.99  -20.0%
      "
    `);
    const markdown = run(
      ["diff", join(base, "catalog"), "--at", "2026-01-01", "--format", "markdown"],
      cwd,
    );
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain("| export single\\_export\\_hd | 2.99 | 3.99 | +33.4% |");
    const wrong = run(["diff", join(base, "catalog"), "--format", "html"], cwd);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain("Allowed choices are text, json, markdown");
  });
});

describe("catalog diff --impact", () => {
  it("counts active subscriptions on each changed price from DATA_DIR, and explains a missing database", () => {
    const base = fixture(catalogTexts());
    const input = makeCatalogInput();
    const cwd = fixture(
      catalogTexts({
        plans: input.plans.map((f) =>
          f.family === "power"
            ? {
                ...f,
                variants: f.variants.map((v) =>
                  v.code === "wv_single_12m"
                    ? { ...v, price: 71.88 }
                    : v.code === "wv_single_plus_12m"
                      ? { ...v, price: 191.76 }
                      : v,
                ),
              }
            : f,
        ),
      }),
    );
    // A data folder whose database holds the two tables the count reads.
    const data = join(cwd, "data");
    mkdirSync(data);
    const db = new DatabaseSync(join(data, "checkout.sqlite"));
    db.exec(`
      CREATE TABLE users (id INTEGER PRIMARY KEY, price_testing_group_value TEXT);
      CREATE TABLE subscriptions (user_id INTEGER, product_code TEXT, seats INTEGER,
        recurring_campaign TEXT, order_state TEXT);
      INSERT INTO users VALUES (1, NULL), (2, NULL), (3, NULL);
      INSERT INTO subscriptions VALUES (1, 'wv_single_12m', 1, NULL, 'automatic'),
        (2, 'wv_single_12m', 1, NULL, 'automatic'), (3, 'wv_single_12m', 1, NULL, 'cancelled');
    `);
    db.close();
    const env = { DATA_DIR: data, DATABASE_URL: "" };
    const result = run(["diff", join(base, "catalog"), "--impact"], cwd, env);
    expect(result.code).toBe(0);
    expect(result.stdout.replace(base, "<base>")).toMatchInlineSnapshot(`
      "Comparing catalog with <base>/catalog
      Active subscriptions counted in <tmp>/data/checkout.sqlite

      Prices up (2)
        wv_single_12m        59.88 →  71.88  +20.0%  2 active subscriptions
        wv_single_plus_12m  179.76 → 191.76  +6.7%  0 active subscriptions
      "
    `);
    const missing = run(["diff", join(base, "catalog"), "--impact"], cwd, {
      DATA_DIR: join(cwd, "nowhere"),
      DATABASE_URL: "",
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      "no database at <tmp>/nowhere/checkout.sqlite: DATA_DIR must name the server's data folder",
    );
    expect(missing.stderr).not.toMatch(/\n\s+at /);
    expect(missing.stdout).toBe("");
  });
});

describe("catalog diff against a git revision", () => {
  it("reads the base catalogue with git, relative to the working directory", () => {
    const cwd = fixture(catalogTexts({}, {}, "pricing/catalog"));
    const git = (...args: string[]) =>
      spawnSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], {
        cwd,
        encoding: "utf8",
      });
    git("init", "-q");
    git("add", ".");
    git("commit", "-q", "-m", "base");
    const input = makeCatalogInput();
    const exports = {
      ...input.exports,
      exportUpgrades: [{ code: "export_upgrade_30m", hours: 0.5, price: 5 }],
    };
    const changed = catalogTexts({ exports }, {}, "catalog");
    writeFileSync(join(cwd, "pricing/catalog/exports.yaml"), changed["catalog/exports.yaml"] ?? "");
    const result = spawnSync(process.execPath, [main, "diff", "HEAD", "--at", "2026-01-01"], {
      cwd: join(cwd, "pricing"),
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatchInlineSnapshot(`
      "Comparing catalog with HEAD:catalog

      Prices down (1)
        export upgrade export_upgrade_30m  6.00 → 5.00  -16.7%
      "
    `);
  });
});

describe("the shell", () => {
  it("prints help for every command", () => {
    for (const command of ["", "validate", "build", "quote", "diff"]) {
      const result = run([...(command ? [command] : []), "--help"], root);
      expect(result.code, command).toBe(0);
      expect(result.stdout).toMatch(/^Usage: catalog/);
    }
  });

  it("exits 1 on an unknown command or option", () => {
    expect(run(["vaildate"], root).code).toBe(1);
    expect(run(["validate", "--strict"], root).code).toBe(1);
  });

  it("runs through the npm bin shim", () => {
    const result = spawnSync(process.execPath, [join(root, "cli/bin.cjs"), "validate"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^✔ catalog is valid: /);
  });

  it("reports problems through the bin shim exactly as through the TypeScript entry", () => {
    const cwd = fixture(
      catalogTexts(
        { exports: { ...makeCatalogInput().exports, maxExportMs: -1 } },
        { "marketing.yaml": "testimonials: {\n", "tax-rates.yaml": "rates: []\nrates: []\n" },
      ),
    );
    const viaBin = spawnSync(process.execPath, [join(root, "cli/bin.cjs"), "validate"], {
      cwd,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "", FORCE_COLOR: "" },
    });
    const viaMain = run(["validate"], cwd, {}, join(root, "cli/main.ts"));
    expect(viaMain.code).toBe(1);
    expect(viaMain.stdout).toMatch(/exports\.yaml:\d+ maxExportMs: /);
    expect({ code: viaBin.status, stdout: viaBin.stdout, stderr: viaBin.stderr }).toEqual(viaMain);
  });

  it("the generated catalogue module loads in Node 24", () => {
    const result = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'const { catalog } = await import("./src/generated/catalog.ts"); console.log(catalog.plans.length > 0)',
      ],
      { cwd: root, encoding: "utf8" },
    );
    expect(result.stdout.trim()).toBe("true");
  });
});
