// `catalog quote`: prices one plan for one customer exactly as the checkout will, from the
// catalogue as it is now in the YAML files (validated on the way, so never a stale build).
import type { Command } from "commander";
import type { Issue } from "../../src/domain/catalog/issue.ts";
import type { ApiErrorCode } from "../../src/domain/errors/api-errors.ts";
import { PRICING_ERROR_CODES } from "../../src/domain/errors/pricing-codes.ts";
import type { Quote } from "../../src/domain/pricing/quote.ts";
import type { CatalogFs } from "../core/catalog-fs.ts";
import type { Loaded } from "../core/load-catalog.ts";
import type { Io } from "../core/output.ts";

export type QuoteOptions = {
  dir: string;
  plan?: string | undefined;
  mode?: "monthly" | "annual" | undefined;
  seats?: string | undefined;
  coupon?: string | undefined;
  at?: string | undefined;
  priceGroup?: string | undefined;
  seatStructure?: string | undefined;
};

/**
 * `error.code` is the API's code for the same failure (src/domain/errors/pricing-codes.ts), so a
 * script reading `--json` sees what the checkout's server answers for the same request.
 */
export type QuoteReport =
  | { ok: true; quote: Quote }
  | { ok: false; error: { code: ApiErrorCode; message: string } }
  | { ok: false; issues: Issue[]; warnings: Issue[] };

const invalid = (message: string): QuoteReport => ({
  ok: false,
  error: { code: "invalid_request", message },
});

/** `2026-11-27` or an ISO date-time with a zone; a date alone means midnight UTC. */
export function parseAt(at: string): number | undefined {
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;
  if (!iso.test(at)) return undefined;
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? undefined : ms;
}

export type QuoteDeps = {
  fs: CatalogFs;
  now: () => number;
  /**
   * Reads and validates the catalogue folder (default: load-catalog.ts). A caller pricing many
   * quotes of one catalogue in one process (the price cross-test) passes one that reads it once.
   */
  load?: ((fs: CatalogFs, dir: string) => Loaded) | undefined;
};

export async function quotePlan(options: QuoteOptions, deps: QuoteDeps): Promise<QuoteReport> {
  if (!options.plan)
    return invalid(
      "name a plan: catalog quote --plan wv_single_12m (a code, or a family id such as power)",
    );
  let seats: number | undefined;
  if (options.seats !== undefined) {
    if (!/^\d+$/.test(options.seats.trim())) {
      return invalid(`--seats must be a whole number of seats, found "${options.seats}"`);
    }
    seats = Number(options.seats);
  }
  let atMs = deps.now();
  if (options.at !== undefined) {
    const parsed = parseAt(options.at.trim());
    if (parsed === undefined) {
      return invalid(
        `--at must be an ISO date such as 2026-11-27 or 2026-11-27T05:00:00Z, found "${options.at}"`,
      );
    }
    atMs = parsed;
  }
  const [{ loadCatalog }, { quote }] = await Promise.all([
    import("../core/load-catalog.ts"),
    import("../../src/domain/pricing/index.ts"),
  ]);
  const loaded = (deps.load ?? loadCatalog)(deps.fs, options.dir);
  if (!loaded.ok) return loaded;
  const result = quote(loaded.catalog, {
    plan: options.plan,
    mode: options.mode,
    seats,
    coupon: options.coupon,
    atMs,
    priceGroup: options.priceGroup,
    seatStructure: options.seatStructure,
  });
  if (result.ok) return { ok: true, quote: result.quote };
  const { code, message } = result.error;
  return { ok: false, error: { code: PRICING_ERROR_CODES[code], message } };
}

export async function formatQuote(q: Quote, io: Io): Promise<string> {
  const { formatPrice, planLabel, termLabel } = await import("../../src/domain/pricing/index.ts");
  const { style } = io;
  const per = q.plan.recurring ? ` per ${termLabel(q.plan.termDuration)}` : "";
  const rows: [string, string][] = [
    ["plan", `${planLabel({ ...q.plan })} ${style.dim(q.plan.code)}`],
    ["price", `${formatPrice(q.price)}${per}`],
    ["monthly equivalent", `${formatPrice(q.monthlyEquivalent)}/month`],
    [
      "seats",
      q.extraSeats > 0
        ? `${q.seats} (${q.includedSeats} included, ${q.extraSeats} extra)`
        : String(q.seats),
    ],
  ];
  if (q.extraSeatPrice !== null && q.extraSeatMonthly !== null) {
    rows.push([
      "extra seat",
      `${formatPrice(q.extraSeatPrice)}${per} (${formatPrice(q.extraSeatMonthly)}/month)`,
    ]);
  }
  if (q.seatBand)
    rows.push(["seat band", `${q.seatBand.from}-${q.seatBand.to} seats (${q.seatBand.structure})`]);
  if (q.priceSet) rows.push(["price set", q.priceSet]);
  if (q.campaign) {
    const c = q.campaign;
    rows.push([
      "campaign",
      `${c.name} (coupon ${c.coupon}): ${formatPrice(c.discount)} off, ${formatPrice(c.price)}${per} (${formatPrice(c.monthlyEquivalent)}/month)`,
    ]);
  }
  if (q.coupon?.note) rows.push(["coupon", q.coupon.note]);
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  const amounts = [...q.lines.map((line) => formatPrice(line.amount)), formatPrice(q.total)];
  const amountWidth = Math.max(...amounts.map((a) => a.length));
  const lineWidth = Math.max(...q.lines.map((line) => line.label.length), "total".length);
  return [
    ...rows.map(([label, value]) => `${style.dim(label.padEnd(labelWidth))}  ${value}`),
    "",
    ...q.lines.map(
      (line) =>
        `${line.label.padEnd(lineWidth)}  ${formatPrice(line.amount).padStart(amountWidth)}`,
    ),
    style.bold(`${"total".padEnd(lineWidth)}  ${formatPrice(q.total).padStart(amountWidth)}`),
  ].join("\n");
}

export function register(program: Command, io: Io): void {
  program
    .command("quote")
    .description(
      "price a plan as the checkout will: price, monthly equivalent, seats, campaign, total",
    )
    .argument("[plan]", "plan code or family id (same as --plan)")
    .option("--plan <code>", "plan code (wv_single_12m) or family id (power)")
    .addOption(program.createOption("--mode <mode>", "billing mode").choices(["monthly", "annual"]))
    .option("--seats <n>", "number of seats")
    .option("--coupon <code>", "coupon the customer typed")
    .option("--at <iso-date>", "price at this time (default now), e.g. 2026-11-27T05:00:00Z")
    .option("--price-group <value>", "price-test group value or price-set id")
    .option("--seat-structure <id>", "seat-band structure (default: the plan's default)")
    .option("--dir <dir>", "catalogue folder", "catalog")
    .option("--json", "print the result as JSON")
    .action(async (plan: string | undefined, options: QuoteOptions & { json?: boolean }) => {
      const { diskFs } = await import("../core/catalog-fs.ts");
      const report = await quotePlan(
        { ...options, plan: options.plan ?? plan },
        { fs: diskFs, now: Date.now },
      );
      if (options.json) io.out(JSON.stringify(report, null, 2));
      else if (report.ok) io.out(await formatQuote(report.quote, io));
      else if ("error" in report) io.err(io.errStyle.red(report.error.message));
      else {
        const { formatIssues } = await import("../core/format-issues.ts");
        io.out(formatIssues(report.issues, report.warnings, io.style));
      }
      process.exitCode = report.ok ? 0 : 1;
    });
}
