// `catalog build [--out dir] [--check]`: validates the catalogue, then writes the generated
// catalogue (src/generated/catalog.json and catalog.ts) and the JSON Schemas (catalog/schema/).
// With --check it writes nothing and fails when any generated file is stale or missing.
import type { Command } from "commander";
import type { Issue } from "../../src/domain/catalog/issue.ts";
import type { CatalogFs } from "../core/catalog-fs.ts";
import type { Io } from "../core/output.ts";
import type { OutputFs } from "../core/output-fs.ts";

export type FileStatus = "written" | "unchanged" | "stale" | "missing";

export type BuildReport =
  | { ok: false; issues: Issue[]; warnings: Issue[] }
  | { ok: true; check: boolean; files: { path: string; status: FileStatus }[]; warnings: Issue[] };

export type BuildOptions = {
  /** Catalogue folder. */
  dir: string;
  /** Folder for catalog.json and catalog.ts. */
  outDir: string;
  check: boolean;
  /** Absolute path of the project root (where src/domain lives). */
  root: string;
  /** The working directory that relative folders are read against. */
  cwd: string;
};

export async function build(
  options: BuildOptions,
  deps: { fs: CatalogFs; out: OutputFs },
): Promise<BuildReport> {
  const { loadCatalog } = await import("../core/load-catalog.ts");
  const { buildOutputs, importPath } = await import("../core/build-outputs.ts");
  const { join, resolve } = await import("node:path");
  const loaded = loadCatalog(deps.fs, options.dir);
  if (!loaded.ok) return loaded;
  const outDir = options.outDir.replace(/\/+$/, "");
  const outputs = buildOutputs(loaded.catalog, {
    generatedDir: outDir,
    schemaDir: `${options.dir.replace(/\/+$/, "")}/schema`,
    catalogSchemaModule: importPath(
      resolve(options.cwd, outDir),
      join(options.root, "src/domain/catalog/catalog-schema.ts"),
    ),
  });
  const files = outputs.map(({ path, content }) => {
    const current = deps.out.read(path);
    if (current === content) return { path, status: "unchanged" as const };
    if (options.check)
      return { path, status: current === undefined ? ("missing" as const) : ("stale" as const) };
    deps.out.write(path, content);
    return { path, status: "written" as const };
  });
  return { ok: true, check: options.check, files, warnings: loaded.warnings };
}

export function isStale(report: BuildReport): boolean {
  return (
    report.ok && report.files.some((file) => file.status === "stale" || file.status === "missing")
  );
}

export async function formatBuildReport(report: BuildReport, io: Io): Promise<string> {
  const { formatIssue, formatIssues } = await import("../core/format-issues.ts");
  const { style } = io;
  if (!report.ok) return formatIssues(report.issues, report.warnings, style);
  const lines = report.files.flatMap(({ path, status }) => {
    if (status === "written") return [`${style.green("wrote")} ${path}`];
    if (status === "stale") return [`${style.red(path)} is out of date: run npm run catalog:build`];
    if (status === "missing") return [`${style.red(path)} is missing: run npm run catalog:build`];
    return [];
  });
  const warnings = report.warnings.map((w) => formatIssue(w, style, style.yellow("warning")));
  if (lines.length === 0)
    lines.push(`${style.green("✔")} ${report.files.length} generated files are up to date`);
  return [...lines, ...warnings].join("\n");
}

export function register(program: Command, io: Io, root: string): void {
  program
    .command("build")
    .description(
      "validate, then write src/generated/catalog.{json,ts} and catalog/schema/*.schema.json",
    )
    .option("--dir <dir>", "catalogue folder", "catalog")
    .option("--out <dir>", "folder for catalog.json and catalog.ts", "src/generated")
    .option("--check", "write nothing; fail if a generated file is stale or missing")
    .option("--json", "print the result as JSON")
    .action(async (options: { dir: string; out: string; check?: boolean; json?: boolean }) => {
      const [{ diskFs }, { diskOutputFs }] = await Promise.all([
        import("../core/catalog-fs.ts"),
        import("../core/output-fs.ts"),
      ]);
      const report = await build(
        { dir: options.dir, outDir: options.out, check: options.check === true, root, cwd: io.cwd },
        { fs: diskFs, out: diskOutputFs },
      );
      io.out(options.json ? JSON.stringify(report, null, 2) : await formatBuildReport(report, io));
      process.exitCode = !report.ok || isStale(report) ? 1 : 0;
    });
}
