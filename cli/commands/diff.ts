// `catalog diff <base>`: what changes for customers between a base catalogue (a folder, or the
// catalogue folder at a git revision) and the catalogue folder as it is now. Always exits 0
// when both catalogues are valid: a diff reports, it does not judge.
import type { Command } from "commander";
import type { CatalogDiff, MigrationChange, PriceChange } from "../../src/domain/catalog/diff.ts";
import type { SubscriptionGroup } from "../../src/domain/catalog/impact.ts";
import type { CatalogFs } from "../core/catalog-fs.ts";
import type { Io, Style } from "../core/output.ts";

export type DiffOptions = { base: string; dir: string; atMs: number };
/** Active subscriptions on each changed price, in the order of pricesUp and pricesDown. */
export type Impact = { source: string; up: (number | null)[]; down: (number | null)[] };
export type DiffReport = { base: string; head: string; diff: CatalogDiff; impact?: Impact };

export type DiffDeps = {
  fs: CatalogFs;
  /** Where the base catalogue is: a folder on disk, or `dir` at a git revision. */
  resolveBase: (base: string, dir: string) => { fs: CatalogFs; dir: string; label: string };
  /** --impact: the active subscriptions of the server's database, grouped. */
  subscriptions?: () => Promise<{ source: string; groups: SubscriptionGroup[] }>;
};

export async function diffAgainst(options: DiffOptions, deps: DiffDeps): Promise<DiffReport> {
  const [{ loadCatalog }, { diffCatalogs }, { ExitError }, { formatIssues }, { plain }] =
    await Promise.all([
      import("../core/load-catalog.ts"),
      import("../../src/domain/catalog/diff.ts"),
      import("../core/exit-error.ts"),
      import("../core/format-issues.ts"),
      import("../core/output.ts"),
    ]);
  const base = deps.resolveBase(options.base, options.dir);
  const load = (fs: CatalogFs, dir: string, label: string) => {
    const loaded = loadCatalog(fs, dir);
    if (loaded.ok) return loaded.catalog;
    throw new ExitError(
      `the catalogue at ${label} is not valid, so there is nothing to compare:\n${formatIssues(loaded.issues, [], plain)}`,
    );
  };
  const before = load(base.fs, base.dir, base.label);
  const after = load(deps.fs, options.dir, options.dir);
  const diff = diffCatalogs(before, after, options.atMs);
  const report: DiffReport = { base: base.label, head: options.dir, diff };
  if (deps.subscriptions) {
    const [{ impactOf }, { source, groups }] = await Promise.all([
      import("../../src/domain/catalog/impact.ts"),
      deps.subscriptions(),
    ]);
    const count = (c: PriceChange) => impactOf(c, after, groups);
    report.impact = { source, up: diff.pricesUp.map(count), down: diff.pricesDown.map(count) };
  }
  return report;
}

/** ", 12 active subscriptions" after a price line, when --impact counted them. */
function impactText(impact: Impact | undefined, side: "up" | "down", i: number): string {
  const n = impact?.[side][i];
  if (impact === undefined) return "";
  if (n === null || n === undefined) return "  (no subscriptions: bought once)";
  return `  ${n} active subscription${n === 1 ? "" : "s"}`;
}

const date = (ms: number) => new Date(ms).toISOString().replace(/:00\.000Z$/, "Z");
const window = (c: { validFrom: number; validTo: number }) =>
  `${date(c.validFrom)} – ${date(c.validTo)}`;
const FIELD: Record<string, string> = {
  price: "",
  seatPrice: "extra seat",
  total: "total",
  perSeat: "per seat",
};
const KIND: Record<PriceChange["kind"], string> = {
  plan: "",
  essentials: "essentials ",
  export: "export ",
  exportUpgrade: "export upgrade ",
  seatBand: "seat band ",
  campaign: "campaign ",
};

/** "+ schools-pre-2024  wv_k12_12m on k12-pre-2024: renewals from 2027-09-01T04:00Z at today's price" */
function migrationLine(m: MigrationChange): string {
  const sign = m.change === "added" ? "+" : m.change === "removed" ? "-" : "~";
  const cohort = [
    m.products.join(", "),
    m.seatStructure ? ` on ${m.seatStructure}` : "",
    m.signedUpBefore === null ? "" : ` signed up before ${date(m.signedUpBefore)}`,
  ].join("");
  const was =
    m.before && m.before.renewalsFrom !== m.renewalsFrom
      ? ` (was from ${date(m.before.renewalsFrom)})`
      : m.change === "changed"
        ? " (cohort changed)"
        : "";
  const what =
    m.change === "removed"
      ? "keep the price they signed up at again"
      : `renew at the current price from ${date(m.renewalsFrom)}${was}`;
  return `${sign} ${m.id}  ${cohort}: ${what}`;
}

function priceLabel(c: PriceChange): string {
  const field = c.kind === "campaign" ? c.field : (FIELD[c.field] ?? c.field);
  return [
    `${KIND[c.kind]}${c.item}`,
    c.seats ? `${c.seats} seats` : "",
    field,
    c.priceSet ? `[price set ${c.priceSet}]` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

export async function formatDiff(report: DiffReport, style: Style): Promise<string> {
  const { formatPrice } = await import("../../src/domain/pricing/index.ts");
  const { diff } = report;
  const out: string[] = [`Comparing ${report.head} with ${report.base}`];
  const section = (title: string, rows: string[]) => {
    if (rows.length > 0)
      out.push("", style.bold(`${title} (${rows.length})`), ...rows.map((row) => `  ${row}`));
  };
  const prices = (changes: PriceChange[], paint: (text: string) => string, side: "up" | "down") => {
    const labels = changes.map(priceLabel);
    const width = Math.max(0, ...labels.map((l) => l.length));
    const beforeWidth = Math.max(0, ...changes.map((c) => formatPrice(c.before).length));
    const afterWidth = Math.max(0, ...changes.map((c) => formatPrice(c.after).length));
    return changes.map((c, i) => {
      const pct =
        c.percent === null
          ? ""
          : `  ${paint(`${c.percent > 0 ? "+" : ""}${c.percent.toFixed(1)}%`)}`;
      const before = formatPrice(c.before).padStart(beforeWidth);
      const after = formatPrice(c.after).padStart(afterWidth);
      return `${(labels[i] ?? "").padEnd(width)}  ${before} → ${after}${pct}${impactText(report.impact, side, i)}`;
    });
  };
  if (report.impact) out.push(`Active subscriptions counted in ${report.impact.source}`);
  section("Prices up", prices(diff.pricesUp, style.red, "up"));
  section("Prices down", prices(diff.pricesDown, style.green, "down"));
  section(
    "Plans added",
    diff.plansAdded.map(
      (p) => `+ ${p.code}  ${p.name}, ${p.termDuration}-month term, ${formatPrice(p.price)}`,
    ),
  );
  section(
    "Plans removed",
    diff.plansRemoved.map(
      (p) => `- ${p.code}  ${p.name}, ${p.termDuration}-month term, ${formatPrice(p.price)}`,
    ),
  );
  section(
    "Campaigns added",
    diff.campaignsAdded.map((c) => `+ ${c.id}  ${c.name} (coupon ${c.coupon}) ${window(c)}`),
  );
  section(
    "Campaigns removed",
    diff.campaignsRemoved.map((c) => `- ${c.id}  ${c.name} (coupon ${c.coupon}) ${window(c)}`),
  );
  section(
    "Campaign windows",
    diff.campaignWindows.map((c) => `${c.id} ${c.change}: ${window(c)} (was ${window(c.before)})`),
  );
  section(
    "Seat structures added",
    diff.seatStructuresAdded.map((id) => `+ ${id}`),
  );
  section(
    "Seat structures removed",
    diff.seatStructuresRemoved.map((id) => `- ${id}`),
  );
  section(
    "Seat bands",
    diff.seatBands.map((b) => `${b.structure}: ${b.after.join(", ")} (was ${b.before.join(", ")})`),
  );
  section("Price migrations", diff.priceMigrations.map(migrationLine));
  if (out.length === (report.impact ? 2 : 1)) out.push("No changes for customers.");
  return out.join("\n");
}

/** Escapes what Markdown would read as markup in a table cell or a list item. */
const md = (text: string) => text.replace(/[\\`*_[\]|<>]/g, (c) => `\\${c}`);

/**
 * The diff as GitHub-flavoured Markdown, for a pull request's job summary: a reviewer sees every
 * price change in a table, and every other change as a list, under the same headings as the text.
 */
export async function formatDiffMarkdown(report: DiffReport): Promise<string> {
  const { formatPrice } = await import("../../src/domain/pricing/index.ts");
  const { diff } = report;
  const out: string[] = [
    `## Catalogue changes for customers`,
    "",
    `Comparing \`${report.head}\` with \`${report.base}\`.`,
  ];
  const { impact } = report;
  const table = (title: string, changes: PriceChange[], side: "up" | "down") => {
    if (changes.length === 0) return;
    const counted = impact ? " active subscriptions |" : "";
    out.push(
      "",
      `### ${title} (${changes.length})`,
      "",
      `| what | before | after | change |${counted}`,
    );
    out.push(`|---|---:|---:|---:|${impact ? "---:|" : ""}`);
    changes.forEach((c, i) => {
      const pct = c.percent === null ? "" : `${c.percent > 0 ? "+" : ""}${c.percent.toFixed(1)}%`;
      const n = impact?.[side][i];
      const count = impact ? ` ${n === null || n === undefined ? "–" : n} |` : "";
      out.push(
        `| ${md(priceLabel(c))} | ${formatPrice(c.before)} | ${formatPrice(c.after)} | ${pct} |${count}`,
      );
    });
  };
  const list = (title: string, rows: string[]) => {
    if (rows.length > 0)
      out.push("", `### ${title} (${rows.length})`, "", ...rows.map((r) => `- ${md(r)}`));
  };
  table("Prices up", diff.pricesUp, "up");
  table("Prices down", diff.pricesDown, "down");
  const plan = (p: CatalogDiff["plansAdded"][number]) =>
    `${p.code}: ${p.name}, ${p.termDuration}-month term, ${formatPrice(p.price)}`;
  const campaign = (c: CatalogDiff["campaignsAdded"][number]) =>
    `${c.id}: ${c.name} (coupon ${c.coupon}) ${window(c)}`;
  list("Plans added", diff.plansAdded.map(plan));
  list("Plans removed", diff.plansRemoved.map(plan));
  list("Campaigns added", diff.campaignsAdded.map(campaign));
  list("Campaigns removed", diff.campaignsRemoved.map(campaign));
  list(
    "Campaign windows",
    diff.campaignWindows.map((c) => `${c.id} ${c.change}: ${window(c)} (was ${window(c.before)})`),
  );
  list("Seat structures added", diff.seatStructuresAdded);
  list("Seat structures removed", diff.seatStructuresRemoved);
  list(
    "Seat bands",
    diff.seatBands.map((b) => `${b.structure}: ${b.after.join(", ")} (was ${b.before.join(", ")})`),
  );
  list(
    "Price migrations",
    diff.priceMigrations.map((m) => migrationLine(m).replace(/^[+~-] /, `${m.change}: `)),
  );
  if (out.length === 3) out.push("", "No changes for customers.");
  return `${out.join("\n")}\n`;
}

export function register(program: Command, io: Io): void {
  program
    .command("diff")
    .description(
      "what changes for customers compared with a base catalogue (a folder or a git revision)",
    )
    .argument("<base>", "a catalogue folder, or a git revision (main, HEAD~1, a tag)")
    .option("--dir <dir>", "catalogue folder to compare (and its path at the revision)", "catalog")
    .option("--at <iso-date>", "decide which campaign windows are open at this time (default now)")
    .option("--json", "print the result as JSON (same as --format json)")
    .option(
      "--impact",
      "count the active subscriptions on each changed price in the server's database (DATABASE_URL, or DATA_DIR), read-only",
    )
    .addOption(
      program
        .createOption("--format <format>", "text, json, or markdown (a pull request's summary)")
        .choices(["text", "json", "markdown"]),
    )
    .action(
      async (
        base: string,
        options: {
          dir: string;
          at?: string;
          json?: boolean;
          format?: string;
          impact?: boolean;
        },
      ) => {
        const [{ diskFs, gitFs, isDirectory }, { parseAt }, { ExitError }] = await Promise.all([
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
        const report = await diffAgainst(
          { base, dir: options.dir, atMs },
          {
            fs: diskFs,
            resolveBase: (ref, dir) =>
              isDirectory(ref)
                ? { fs: diskFs, dir: ref, label: ref }
                : { fs: gitFs(ref, io.cwd), dir, label: `${ref}:${dir}` },
            ...(options.impact
              ? {
                  subscriptions: async () => {
                    const { subscriptionGroups } = await import("../core/subscription-groups.ts");
                    return subscriptionGroups(io.env);
                  },
                }
              : {}),
          },
        );
        const format = options.json ? "json" : (options.format ?? "text");
        if (format === "json") io.out(JSON.stringify(report, null, 2));
        else if (format === "markdown") io.out(await formatDiffMarkdown(report));
        else io.out(await formatDiff(report, io.style));
        process.exitCode = 0;
      },
    );
}
