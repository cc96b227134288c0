// `catalog schedule [--at] [--json]`: the upcoming edges of every campaign window (opens, closes)
// and of every price experiment's window (starts, ends), soonest first, so that a scheduler can
// rebuild the static pages at each (docs/static-pages.md): both change the prices the pages show.
import type { Command } from "commander";
import type { Catalog } from "../../src/domain/catalog/catalog-schema.ts";
import type { Issue } from "../../src/domain/catalog/issue.ts";
import type { CatalogFs } from "../core/catalog-fs.ts";
import type { Io } from "../core/output.ts";

export type WindowEdge = {
  /** Millisecond timestamp of the edge; `validTo` is exclusive, so a close is the first instant without. */
  at: number;
  edge: "opens" | "closes";
  campaign: string;
  name: string;
  coupon: string;
  targeted: boolean;
};

export type ExperimentEdge = {
  /** Millisecond timestamp of the edge; `to` is exclusive, so an end is the first instant without. */
  at: number;
  edge: "starts" | "ends";
  experiment: string;
  /** Product codes the experiment prices. */
  plans: string[];
};

export type ScheduleReport =
  | { ok: true; from: number; edges: WindowEdge[]; experimentEdges: ExperimentEdge[] }
  | { ok: false; issues: Issue[]; warnings: Issue[] };

/** Every campaign window edge after `atMs` (an edge exactly at `atMs` is upcoming), soonest first. */
export function windowEdges(catalog: Pick<Catalog, "campaigns">, atMs: number): WindowEdge[] {
  const edges: WindowEdge[] = [];
  for (const c of catalog.campaigns) {
    const base = { campaign: c.id, name: c.name, coupon: c.coupon, targeted: c.targeted };
    if (c.validFrom >= atMs) edges.push({ at: c.validFrom, edge: "opens", ...base });
    if (c.validTo >= atMs) edges.push({ at: c.validTo, edge: "closes", ...base });
  }
  return edges.sort((a, b) => a.at - b.at || a.campaign.localeCompare(b.campaign));
}

/** Every experiment window edge after `atMs` (an edge exactly at `atMs` is upcoming), soonest first. */
export function experimentEdges(
  catalog: Pick<Catalog, "experiments">,
  atMs: number,
): ExperimentEdge[] {
  const edges: ExperimentEdge[] = [];
  for (const x of catalog.experiments ?? []) {
    const base = { experiment: x.id, plans: x.plans };
    if (x.from >= atMs) edges.push({ at: x.from, edge: "starts", ...base });
    if (x.to >= atMs) edges.push({ at: x.to, edge: "ends", ...base });
  }
  return edges.sort((a, b) => a.at - b.at || a.experiment.localeCompare(b.experiment));
}

export async function schedule(
  options: { dir: string; atMs: number },
  deps: { fs: CatalogFs },
): Promise<ScheduleReport> {
  const { loadCatalog } = await import("../core/load-catalog.ts");
  const loaded = loadCatalog(deps.fs, options.dir);
  if (!loaded.ok) return loaded;
  return {
    ok: true,
    from: options.atMs,
    edges: windowEdges(loaded.catalog, options.atMs),
    experimentEdges: experimentEdges(loaded.catalog, options.atMs),
  };
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

export function formatSchedule(report: Extract<ScheduleReport, { ok: true }>): string {
  if (report.edges.length === 0 && report.experimentEdges.length === 0)
    return `No campaign or experiment window opens or closes after ${iso(report.from)}.`;
  const lines = [
    ...report.edges.map((e) => ({
      at: e.at,
      text: `${iso(e.at)}  ${e.edge.padEnd(6)}  ${e.campaign} (${e.name}, coupon ${e.coupon}${e.targeted ? ", targeted" : ""})`,
    })),
    ...report.experimentEdges.map((e) => ({
      at: e.at,
      text: `${iso(e.at)}  ${e.edge.padEnd(6)}  experiment ${e.experiment} (${e.plans.join(", ")})`,
    })),
  ];
  // Stable: at one instant, campaign edges before experiment edges, each list in its own order.
  return lines
    .sort((a, b) => a.at - b.at)
    .map((line) => line.text)
    .join("\n");
}

export function register(program: Command, io: Io): void {
  program
    .command("schedule")
    .description(
      "the upcoming campaign and experiment window edges: rebuild the static pages at each",
    )
    .option("--dir <dir>", "catalogue folder", "catalog")
    .option("--at <iso-date>", "list the edges after this time (default now)")
    .option("--json", "print the result as JSON")
    .action(async (options: { dir: string; at?: string; json?: boolean }) => {
      const [{ diskFs }, { parseAt }, { ExitError }] = await Promise.all([
        import("../core/catalog-fs.ts"),
        import("./quote.ts"),
        import("../core/exit-error.ts"),
      ]);
      const atMs = options.at === undefined ? Date.now() : parseAt(options.at);
      if (atMs === undefined) {
        throw new ExitError(
          `--at must be an ISO date such as 2026-11-27 or 2026-11-27T05:00:00Z, found "${options.at}"`,
        );
      }
      const report = await schedule({ dir: options.dir, atMs }, { fs: diskFs });
      if (options.json) io.out(JSON.stringify(report, null, 2));
      else if (report.ok) io.out(formatSchedule(report));
      else {
        const { formatIssues } = await import("../core/format-issues.ts");
        io.out(formatIssues(report.issues, report.warnings, io.style));
      }
      process.exitCode = report.ok ? 0 : 1;
    });
}
