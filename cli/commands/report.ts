// `catalog report`: revenue, subscriptions, movements, trials, campaigns and experiments from the
// server's database, read-only (DATABASE_URL, else DATA_DIR), over a window (--from, --to;
// default the 12 months up to now), as text, json, markdown or one self-contained html file.
// The figures are src/domain/report's (decision 0091); the reads are cli/core/report/data.ts.
import type { Command } from "commander";
import type { Report, ReportCatalog } from "../../src/domain/report/report.ts";
import type { Window } from "../../src/domain/report/window.ts";
import type { CatalogFs } from "../core/catalog-fs.ts";
import type { Io } from "../core/output.ts";
import type { ReportDatabase } from "../core/report/database.ts";

const FORMATS = ["text", "json", "markdown", "html"] as const;
export type Format = (typeof FORMATS)[number];

export type ReportDeps = {
  /** The catalogue (plan names, list prices, campaigns, experiments); else read from `dir`. */
  catalog?: ReportCatalog;
  fs?: CatalogFs;
  env: Record<string, string | undefined>;
  now: () => number;
  /** Opens the server's database read-only (default: DATABASE_URL, else DATA_DIR). */
  open?: (env: Record<string, string | undefined>) => Promise<ReportDatabase>;
};

/** The window of --from and --to: ISO dates, to after from; default the last 12 months. */
export async function windowOf(
  from: string | undefined,
  to: string | undefined,
  now: number,
): Promise<Window> {
  const [{ parseAt }, { ExitError }, { lastTwelveMonths }] = await Promise.all([
    import("./quote.ts"),
    import("../core/exit-error.ts"),
    import("../../src/domain/report/window.ts"),
  ]);
  const parse = (name: string, text: string) => {
    const ms = parseAt(text);
    if (ms === undefined)
      throw new ExitError(
        `${name} must be an ISO date such as 2026-01-01 or 2026-01-01T00:00:00Z, found "${text}"`,
      );
    return ms;
  };
  const end = to === undefined ? now : parse("--to", to);
  const start = from === undefined ? lastTwelveMonths(end).from : parse("--from", from);
  if (start >= end)
    throw new ExitError(
      `--from (${new Date(start).toISOString()}) must be before --to (${new Date(end).toISOString()})`,
    );
  return { from: start, to: end };
}

async function catalogOf(dir: string, deps: ReportDeps): Promise<ReportCatalog> {
  if (deps.catalog) return deps.catalog;
  const [{ loadCatalog }, { diskFs }, { ExitError }, { formatIssues }, { plain }] =
    await Promise.all([
      import("../core/load-catalog.ts"),
      import("../core/catalog-fs.ts"),
      import("../core/exit-error.ts"),
      import("../core/format-issues.ts"),
      import("../core/output.ts"),
    ]);
  const loaded = loadCatalog(deps.fs ?? diskFs, dir);
  if (loaded.ok) return loaded.catalog;
  throw new ExitError(
    `the catalogue at ${dir} is not valid, so the report cannot price or name plans:\n${formatIssues(loaded.issues, [], plain)}`,
  );
}

/** The report of the database's rows in `window`, read in one read-only pass. */
export async function makeReport(dir: string, window: Window, deps: ReportDeps): Promise<Report> {
  const [{ openReportDatabase }, { readReportRows }, { buildReport }] = await Promise.all([
    import("../core/report/database.ts"),
    import("../core/report/data.ts"),
    import("../../src/domain/report/report.ts"),
  ]);
  const catalog = await catalogOf(dir, deps);
  const db = await (deps.open ?? openReportDatabase)(deps.env);
  try {
    const rows = await db.read((read) => readReportRows(read, window));
    return buildReport(rows, catalog, window, db.source);
  } finally {
    await db.close();
  }
}

export async function renderReport(
  report: Report,
  format: Format,
  tokensCss: string,
): Promise<string> {
  if (format === "json") return `${JSON.stringify(report, null, 2)}\n`;
  if (format === "html")
    return (await import("../core/report/html.ts")).formatHtml(report, tokensCss);
  const text = await import("../core/report/text.ts");
  return format === "markdown" ? text.formatMarkdown(report) : `${text.formatText(report)}\n`;
}

export function register(program: Command, io: Io, root: string): void {
  program
    .command("report")
    .description(
      "revenue, subscriptions, campaigns and experiments from the server's database (DATABASE_URL, or DATA_DIR), read-only",
    )
    .option("--from <iso-date>", "start of the window, inclusive (default: 12 months before --to)")
    .option("--to <iso-date>", "end of the window, exclusive (default: now)")
    .addOption(
      program
        .createOption(
          "--format <format>",
          "text, json, markdown, or html (one self-contained file)",
        )
        .choices(FORMATS)
        .default("text"),
    )
    .option("--json", "print the whole report as JSON (same as --format json)")
    .option("--out <file>", "write the report to this file instead of printing it")
    .option("--dir <dir>", "catalogue folder (plan names, list prices, campaigns)", "catalog")
    .action(
      async (options: {
        from?: string;
        to?: string;
        format: Format;
        json?: boolean;
        out?: string;
        dir: string;
      }) => {
        const [{ readFileSync, writeFileSync }, { resolve }, { ExitError }] = await Promise.all([
          import("node:fs"),
          import("node:path"),
          import("../core/exit-error.ts"),
        ]);
        const format: Format = options.json ? "json" : options.format;
        const window = await windowOf(options.from, options.to, Date.now());
        const report = await makeReport(resolve(io.cwd, options.dir), window, {
          env: io.env,
          now: Date.now,
        });
        const tokens =
          format === "html" ? readFileSync(`${root}src/styles/tokens.css`, "utf8") : "";
        const text = await renderReport(report, format, tokens);
        if (options.out === undefined) {
          io.out(text.replace(/\n$/, ""));
        } else {
          const file = resolve(io.cwd, options.out);
          try {
            writeFileSync(file, text);
          } catch (error) {
            throw new ExitError(
              `--out ${options.out} could not be written: ${error instanceof Error ? error.message : String(error)}`,
            );
          }
          io.err(`Wrote ${format} report to ${options.out}`);
        }
        process.exitCode = 0;
      },
    );
}
