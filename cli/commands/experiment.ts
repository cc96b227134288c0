// `catalog experiment end <id> --keep <set> [--at] [--json]`: ends a price experiment in the
// catalogue files. With --keep control the default prices stay; with --keep <set> the plans the
// experiment covered take that price set's prices as their default. Either way the experiment's
// window closes at --at (default now), so its history stays named in price-tests.yaml.
// `catalog diff` then shows the price change like any other; commit and publish as usual.
import type { Command } from "commander";
import { dollars } from "../../src/domain/catalog/messages.ts";
import type { EndReport } from "../core/end-experiment.ts";
import type { Io } from "../core/output.ts";

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

export async function formatEndReport(report: EndReport, io: Io): Promise<string> {
  const { style } = io;
  if (!report.ok) {
    const { formatIssues } = await import("../core/format-issues.ts");
    const why =
      report.when === "before"
        ? "the catalogue is not valid; fix it first"
        : "the catalogue would not be valid after the change; nothing was written";
    return `${style.red("not ended:")} ${why}\n${formatIssues(report.issues, report.warnings, style)}`;
  }
  const out = [
    `${style.green("✔")} experiment ${report.experiment} ends at ${iso(report.endedAt)}, keeping ${report.keep}`,
  ];
  if (report.edits.length === 0 && report.keep === "control") {
    out.push("  The default prices stay.");
  }
  for (const edit of report.edits) {
    out.push(
      `  ${edit.code} ${edit.field} ${dollars(edit.before)} → ${dollars(edit.after)}  (${edit.file})`,
    );
    if (edit.comment) out.push(`    check its comment still holds: # ${edit.comment}`);
  }
  for (const code of report.unchanged) {
    out.push(`  ${code} keeps its price: ${report.keep} has no price for it`);
  }
  out.push(`Changed: ${report.files.join(", ")}`);
  out.push(
    "Next: catalog diff HEAD shows the price change and its customers; commit, then publish.",
  );
  return out.join("\n");
}

export function register(program: Command, io: Io): void {
  const experiment = program
    .command("experiment")
    .description("manage price experiments (catalog/price-tests.yaml)");
  experiment
    .command("end <id>")
    .description("end an experiment, keeping the control's prices or a price set's")
    .requiredOption("--keep <set>", "the group whose prices stay: control or a price-set id")
    .option("--dir <dir>", "catalogue folder", "catalog")
    .option("--at <iso-date>", "when the experiment's window closes (default now)")
    .option("--json", "print the result as JSON")
    .action(
      async (id: string, options: { keep: string; dir: string; at?: string; json?: boolean }) => {
        const [{ diskFs }, { diskOutputFs }, { parseAt }, { ExitError }, { endExperiment }] =
          await Promise.all([
            import("../core/catalog-fs.ts"),
            import("../core/output-fs.ts"),
            import("./quote.ts"),
            import("../core/exit-error.ts"),
            import("../core/end-experiment.ts"),
          ]);
        const atMs = options.at === undefined ? Date.now() : parseAt(options.at);
        if (atMs === undefined) {
          throw new ExitError(
            `--at must be an ISO date such as 2027-03-01 or 2027-03-01T05:00:00Z, found "${options.at}"`,
          );
        }
        const report = endExperiment(
          { dir: options.dir, id, keep: options.keep, atMs },
          { fs: diskFs, out: diskOutputFs, now: Date.now },
        );
        io.out(options.json ? JSON.stringify(report, null, 2) : await formatEndReport(report, io));
        process.exitCode = report.ok ? 0 : 1;
      },
    );
}
