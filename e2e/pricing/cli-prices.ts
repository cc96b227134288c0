// `catalog quote --json` for the price cross-test. The real command (cli/bin.cjs, a process per
// quote) costs a Node start-up each, so it runs for a sample that covers every plan, coupon,
// refusal and time of the set; every combination also goes through the command's own core
// (quotePlan: option parsing, the pricing module, the API error codes) in this process, over the
// YAML catalogue read and validated once. Both read catalog/*.yaml, never the built catalogue.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type QuoteReport, quotePlan } from "../../cli/commands/quote.ts";
import { type CatalogFs, diskFs } from "../../cli/core/catalog-fs.ts";
import { type Loaded, loadCatalog } from "../../cli/core/load-catalog.ts";
import type { PriceCombination } from "../../src/domain/testing/price-combinations.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

export type CliAnswer =
  | { ok: true; total: number; seats: number }
  | { ok: false; refusal: { code: string; message: string } };

function argsOf(c: PriceCombination): string[] {
  return [
    "--plan",
    c.plan,
    "--at",
    new Date(c.atMs).toISOString(),
    ...(c.seats === null ? [] : ["--seats", String(c.seats)]),
    ...(c.coupon === null ? [] : ["--coupon", c.coupon]),
  ];
}

function answerOf(report: QuoteReport, what: string): CliAnswer {
  if (report.ok) return { ok: true, total: report.quote.total, seats: report.quote.seats };
  if ("error" in report) return { ok: false, refusal: report.error };
  throw new Error(`${what}: the catalogue does not validate (${report.issues.length} problems)`);
}

/** `catalog quote … --json`, the real command, as the pricing team runs it. */
export function quoteProcess(c: PriceCombination): Promise<CliAnswer> {
  const args = ["cli/bin.cjs", "quote", ...argsOf(c), "--json"];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: root, encoding: "utf8" }, (error, stdout, stderr) => {
      // A refusal exits 1 with its JSON on stdout; anything else unreadable is a failure.
      try {
        resolve(answerOf(JSON.parse(stdout) as QuoteReport, `catalog ${args.slice(1).join(" ")}`));
      } catch {
        reject(new Error(`catalog ${args.slice(1).join(" ")}: ${error?.message ?? ""}\n${stderr}`));
      }
    });
  });
}

/**
 * The command's core for many quotes: the function the command calls, with the options as
 * commander hands them over (strings), over the catalogue folder read and validated once (each
 * real command reads it again; parsing it a thousand times would prove nothing more).
 */
export function quoteCore(): (c: PriceCombination) => Promise<CliAnswer> {
  let loaded: Loaded | undefined;
  const load = (fs: CatalogFs, dir: string): Loaded => {
    loaded ??= loadCatalog(fs, dir);
    return loaded;
  };
  return async (c) => {
    const report = await quotePlan(
      {
        dir: `${root}catalog`,
        plan: c.plan,
        at: new Date(c.atMs).toISOString(),
        ...(c.seats === null ? {} : { seats: String(c.seats) }),
        ...(c.coupon === null ? {} : { coupon: c.coupon }),
      },
      { fs: diskFs, now: () => c.atMs, load },
    );
    return answerOf(report, `quotePlan ${argsOf(c).join(" ")}`);
  };
}

/**
 * A few combinations that between them name every plan, coupon, time and refusal of the set
 * (greedy: each pick covers the most features not yet covered), for the real command.
 */
export function processSample(
  combos: readonly PriceCombination[],
  refusalOf: (c: PriceCombination) => string | null,
): PriceCombination[] {
  const features = (c: PriceCombination) => [
    `plan ${c.plan}`,
    `time ${c.atMs}`,
    `coupon ${c.coupon ?? "none"}`,
    `refusal ${refusalOf(c) ?? "none"}`,
    `seats ${c.seats === null ? "default" : c.seats > 1 ? "several" : "one"}`,
  ];
  const uncovered = new Set(combos.flatMap(features));
  const picked: PriceCombination[] = [];
  while (uncovered.size > 0) {
    let best: PriceCombination | undefined;
    let bestGain = 0;
    for (const c of combos) {
      const gain = features(c).filter((f) => uncovered.has(f)).length;
      if (gain > bestGain) {
        best = c;
        bestGain = gain;
      }
    }
    if (best === undefined) break;
    picked.push(best);
    for (const f of features(best)) uncovered.delete(f);
  }
  return picked;
}
