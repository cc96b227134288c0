// `catalog validate [dir]`: checks every catalogue file and every rule across files; prints a
// one-line summary, or every problem as `file:line path: message`. Exit 0 when valid, 1 when not.
import type { Command } from "commander";
import type { Catalog } from "../../src/domain/catalog/catalog-schema.ts";
import type { Issue } from "../../src/domain/catalog/issue.ts";
import type { CatalogFs } from "../core/catalog-fs.ts";
import type { Io } from "../core/output.ts";

export type Summary = {
  plans: number;
  families: number;
  essentialsAddOns: number;
  singleExports: number;
  exportUpgrades: number;
  seatStructures: number;
  campaigns: number;
  banners: number;
  priceSets: number;
  taxRates: number;
};

export type ValidateReport =
  | { ok: true; dir: string; summary: Summary; warnings: Issue[] }
  | { ok: false; dir: string; issues: Issue[]; warnings: Issue[] };

export function summarise(catalog: Catalog): Summary {
  return {
    plans: catalog.plans.length,
    families: new Set(catalog.plans.map((plan) => plan.family)).size,
    essentialsAddOns: catalog.essentials.addOns.length,
    singleExports: catalog.singleExports.length,
    exportUpgrades: catalog.exportUpgrades.length,
    seatStructures: catalog.seatStructures.length,
    campaigns: catalog.campaigns.length,
    banners: catalog.campaigns.reduce((n, campaign) => n + campaign.banners.length, 0),
    priceSets: catalog.priceSets.length,
    taxRates: catalog.taxRates.length,
  };
}

export type ValidateDeps = { fs: CatalogFs };

/** Validates the catalogue folder `dir`. */
export async function validate(dir: string, deps: ValidateDeps): Promise<ValidateReport> {
  const { readTexts } = await import("../core/read-texts.ts");
  const raw = readTexts(deps.fs, dir);
  const { validateRaw } = await import("../core/load-catalog.ts");
  const loaded = validateRaw(raw, dir);
  if (!loaded.ok) return { ok: false, dir, issues: loaded.issues, warnings: loaded.warnings };
  return { ok: true, dir, summary: summarise(loaded.catalog), warnings: loaded.warnings };
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function formatSummary(s: Summary): string {
  return [
    `${count(s.plans, "plan")} in ${count(s.families, "family", "families")}`,
    count(s.essentialsAddOns, "essentials add-on"),
    count(s.singleExports, "single export"),
    count(s.exportUpgrades, "export upgrade"),
    count(s.seatStructures, "seat structure"),
    count(s.campaigns, "campaign"),
    count(s.banners, "banner"),
    count(s.priceSets, "price set"),
    count(s.taxRates, "tax rate"),
  ].join(", ");
}

export async function formatValidateReport(report: ValidateReport, io: Io): Promise<string> {
  const { formatIssue, formatIssues } = await import("../core/format-issues.ts");
  const { style } = io;
  if (!report.ok) return formatIssues(report.issues, report.warnings, style);
  const head = `${style.green("✔")} ${report.dir} is valid: ${formatSummary(report.summary)}`;
  const warnings = report.warnings.map((w) => formatIssue(w, style, style.yellow("warning")));
  return [head, ...warnings].join("\n");
}

export function register(program: Command, io: Io): void {
  program
    .command("validate")
    .description("check every catalogue file and the rules across them")
    .argument("[dir]", "catalogue folder", "catalog")
    .option("--json", "print the result as JSON")
    .action(async (dir: string, options: { json?: boolean }) => {
      const { diskFs } = await import("../core/catalog-fs.ts");
      const report = await validate(dir, { fs: diskFs });
      io.out(
        options.json ? JSON.stringify(report, null, 2) : await formatValidateReport(report, io),
      );
      process.exitCode = report.ok ? 0 : 1;
    });
}
