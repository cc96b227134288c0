// One price everywhere (issue 12): for every combination of the catalogue's plans, seat edges,
// coupons and campaign edges (src/domain/testing/price-combinations.ts), the price on the built
// static plans page (read in the browser on the visitor's clock) = `catalog quote --json` = the
// server's POST /api/4/payment/summary = what the sandbox provider charged a fresh account that
// bought it = the price on its invoice. A combination the pricing refuses is refused alike by
// the command, the summary and the purchase (same code and message), nothing is charged, and the
// seat calculator shows no price for it. Runs after the build (npm test's browser stage), on the
// real catalogue, with an in-process server whose clock is set to each combination's time.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { asOfDir } from "../../scripts/pages-as-of.ts";
import { isEducationCode } from "../../src/domain/account/tier.ts";
import {
  type PriceCombination,
  priceCombinations,
} from "../../src/domain/testing/price-combinations.ts";
import { loadCatalog } from "../../src/server/catalog.ts";
import { testClock } from "../../src/server/clock.ts";
import { createStaticHandler, sendNotFound } from "../../src/server/static-files.ts";
import { startTestServer } from "../../src/server/testing/harness.ts";
import { type CliAnswer, processSample, quoteCore, quoteProcess } from "./cli-prices.ts";
import { proveMidPeriodAdditions } from "./mid-period-prices.ts";
import {
  inPool,
  ledgerCounts,
  newBuyer,
  type Purchase,
  purchase,
  type SummaryAnswer,
  summaryOf,
  visitorClient,
} from "./server-prices.ts";
import {
  openAt,
  readOffers,
  readSeatCalculator,
  type StaticOffer,
  showAt,
} from "./static-prices.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

type Site = { origin: string; server: Server; dir: string };

async function serve(dir: string): Promise<Site> {
  const handler = createStaticHandler(dir);
  const server = createServer((req, res) => {
    if (!handler(req, res)) sendNotFound(dir, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, server, dir };
}

function close(site: Site | undefined): void {
  site?.server.close();
}

/** When dist/ was built: the plans page's <meta name="catalog-built-at">. */
function distBuiltAt(): number {
  const html = readFileSync(join(root, "dist/plans/index.html"), "utf8");
  const at = /<meta name="catalog-built-at" content="([^"]+)"/.exec(html)?.[1];
  const ms = Date.parse(at ?? "");
  if (!Number.isFinite(ms)) throw new Error("dist/plans/index.html carries no build time");
  return ms;
}

type Static = { kind: "price"; amount: number } | { kind: "none" } | null;

/** What the static pages show for a combination: a price, no price ("–"), or nothing to read. */
function staticPrice(
  c: PriceCombination,
  offers: Map<string, StaticOffer>,
  calculator: { code: string; totals: Map<number, number | null> },
  publicCoupons: Set<string>,
): Static {
  // Targeted coupons never show on public pages; a public campaign's coupon changes nothing.
  if (c.coupon !== null && !publicCoupons.has(c.coupon)) return null;
  if (c.plan === calculator.code && c.seats !== null) {
    const total = calculator.totals.get(c.seats);
    if (total === undefined) return null;
    return total === null ? { kind: "none" } : { kind: "price", amount: total };
  }
  const offer = offers.get(c.plan);
  if (offer === undefined) return null;
  if (c.seats === null) return { kind: "price", amount: offer.termPrice };
  const extra = Math.max(0, c.seats - (offer.includedSeats ?? 1));
  if (extra === 0) return { kind: "price", amount: offer.termPrice };
  if (offer.extraSeatPrice === null) return null;
  return { kind: "price", amount: offer.termPrice + extra * offer.extraSeatPrice };
}

type Row = {
  combo: PriceCombination;
  cli?: CliAnswer;
  process?: CliAnswer;
  summary?: SummaryAnswer;
  purchase?: Purchase;
  statics: { where: string; shown: NonNullable<Static> }[];
  /** Pages a plan sold on the web is missing from. */
  missing: string[];
};

const describe = (c: PriceCombination) =>
  `${c.plan} seats=${c.seats ?? "default"} coupon=${c.coupon ?? "none"} at ${new Date(c.atMs).toISOString()} [${c.because.join("; ")}]`;

/** What is wrong with one combination's answers (nothing: it is proved). */
function problemsOf(row: Row): string[] {
  const { cli, process: proc, summary, purchase: bought } = row;
  if (!cli || !summary || !bought) return ["not every layer answered"];
  const problems: string[] = [];
  const same = (what: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b))
      problems.push(`${what}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`);
  };
  if (proc) same("catalog quote process vs its core", proc, cli);
  if (cli.ok) {
    same("summary", summary.ok ? summary.total : summary, cli.total);
    if (summary.ok) {
      same("summary before tax", summary.subTotal, cli.total);
      same("summary seats", summary.seats, cli.seats);
    }
    same("upgrade total", bought.ok ? bought.total : bought, cli.total);
    if (bought.ok) {
      same("sandbox charge", bought.charged, cli.total);
      same("invoice price", bought.invoicePrice, cli.total);
      same("invoice amount paid", bought.invoicePaid, cli.total);
      same("invoices of a fresh account", bought.invoices, 1);
      same("invoice row", bought.invoiceRow, cli.total);
      same("invoice document", bought.invoiceDocument, cli.total);
    }
    for (const { where, shown } of row.statics) {
      same(`static page (${where})`, shown, { kind: "price", amount: cli.total });
    }
  } else {
    same("summary refusal", summary.ok ? summary : summary.refusal, cli.refusal);
    same("purchase refusal", bought.ok ? bought : bought.refusal, cli.refusal);
    // The seat calculator, the one static reading that can refuse, shows no price ("–").
    for (const { where, shown } of row.statics)
      same(`static page (${where})`, shown, { kind: "none" });
  }
  for (const where of row.missing) problems.push(`not on the plans page (${where})`);
  return problems;
}

test("one price everywhere: static page = catalog quote = summary = charge = invoice row = invoice document", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const started = performance.now();
  const phases: string[] = [];
  let phaseStart = started;
  const phase = (name: string) => {
    const now = performance.now();
    phases.push(`${name} ${((now - phaseStart) / 1000).toFixed(1)} s`);
    phaseStart = now;
  };
  const catalog = loadCatalog();
  const builtAt = distBuiltAt();
  const combos = priceCombinations(catalog, builtAt);
  const rows = combos.map((combo): Row => ({ combo, statics: [], missing: [] }));
  const publicCoupons = new Set(
    catalog.campaigns.filter((c) => !c.targeted).map((c) => c.coupon.toLowerCase()),
  );

  // `catalog quote`: the command's core for every combination, the real command for a sample
  // (started now, two at a time, while the rest runs).
  const core = quoteCore();
  for (const row of rows) row.cli = await core(row.combo);
  const sample = processSample(combos, (c) => {
    const cli = rows.find((r) => r.combo === c)?.cli;
    return cli && !cli.ok ? cli.refusal.code : null;
  });
  const processes = inPool(sample, 2, async (c) => {
    const row = rows.find((r) => r.combo === c);
    if (row) row.process = await quoteProcess(c);
  }).then(() => phase("CLI processes (beside the pages)"));
  phase("CLI core");

  // The static pages: today's build (dist/, valid from its build time on) and one built before
  // the catalogue's first campaign edge, which carries every campaign (valid at every time).
  // The early site is built before the browser tests start (scripts/pages-as-of.ts, npm test's
  // build stage); it must predate every campaign edge to be read at every time.
  const firstEdge = Math.min(...catalog.campaigns.map((c) => c.validFrom));
  const earlyBuild = asOfDir("early");
  expect(earlyBuild.atMs, "the early site predates every campaign edge").toBeLessThan(firstEdge);
  const early = await serve(earlyBuild.dir);
  const dist = await serve(join(root, "dist"));
  try {
    const sites = [
      {
        name: `built ${new Date(earlyBuild.atMs).toISOString().slice(0, 10)}`,
        site: early,
        from: 0,
      },
      { name: "dist/", site: dist, from: builtAt },
    ];
    const calculatorSeats = [
      ...new Set(combos.flatMap((c) => (c.seats === null ? [] : [c.seats]))),
    ];
    for (const { name, site, from } of sites) {
      const times = [...new Set(combos.map((c) => c.atMs))].filter((t) => t >= from);
      // The combinations are priced at the default prices: a visitor the server has said may not
      // be enrolled in a price experiment (cookie xp "!") sees those at every time. Experiment
      // groups have their own cross-test (experiment-prices.spec.ts).
      await page.context().addCookies([{ name: "xp", value: "!", url: site.origin }]);
      await openAt(page, `${site.origin}/plans`, times[0] ?? builtAt);
      const calculator = await readSeatCalculator(page, calculatorSeats);
      for (const atMs of times) {
        if (atMs !== times[0]) await showAt(page, atMs);
        const offers = await readOffers(page, atMs);
        for (const row of rows.filter((r) => r.combo.atMs === atMs)) {
          const c = row.combo;
          const viaCalculator = c.plan === calculator.code && c.seats !== null;
          const where = `${name}${viaCalculator ? " seat calculator" : ""}`;
          const shown = staticPrice(c, offers, calculator, publicCoupons);
          // Every plan sold on the web is on the plans page.
          if (!viaCalculator && !offers.has(c.plan)) row.missing.push(where);
          // Only the calculator can show a refusal; elsewhere a refused order has no reading.
          if (shown === null || (row.cli?.ok === false && !viaCalculator)) continue;
          row.statics.push({ where, shown });
        }
      }
    }
  } finally {
    close(early);
    close(dist);
  }

  // The server: a visitor's summary for each, then a fresh account buys each priced one; the
  // refused ones are tried by one account with a card, which must be charged nothing.
  const times = [...new Set(combos.map((c) => c.atMs))];
  phase("static pages");
  // The database in memory where the system offers it: a thousand purchases wait on a thousand
  // fsyncs otherwise, which on a busy machine is most of the run and proves nothing about prices.
  const dataDir = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "price-cross-"));
  const server = await startTestServer({
    catalog,
    seed: false,
    rateLimitScale: 1_000_000,
    clock: testClock(times[0] ?? builtAt),
    env: { DATA_DIR: dataDir },
  });
  try {
    const visitor = visitorClient(server);
    for (const atMs of times) {
      server.clock.set(atMs);
      const group = rows.filter((r) => r.combo.atMs === atMs);
      for (const row of group) row.summary = await summaryOf(visitor, row.combo);
      const priced = group.filter((r) => r.summary?.ok);
      await inPool(priced, 4, async (row) => {
        const client = await newBuyer(server, { school: isEducationCode(row.combo.plan) });
        const total = row.summary?.ok ? row.summary.total : undefined;
        row.purchase = await purchase(server, client, row.combo, total);
      });
      const refused = group.filter((r) => !r.summary?.ok);
      if (refused.length > 0) {
        // A verified school address, so that a refused teacher plan is refused for its own reason.
        const client = await newBuyer(server, { school: true });
        const before = await ledgerCounts(server);
        for (const row of refused)
          row.purchase = await purchase(server, client, row.combo, undefined);
        expect(await ledgerCounts(server), "a refused purchase charged or ordered").toEqual(before);
      }
    }
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  phase("server");
  await processes;

  // Failures grouped by the layer that disagrees, a few examples each, so that one wrong layer
  // reads as one finding rather than hundreds of lines.
  const byLayer = new Map<string, string[]>();
  let proved = 0;
  for (const row of rows) {
    const problems = problemsOf(row);
    if (problems.length === 0) proved += 1;
    for (const problem of problems) {
      const layer = problem.split(":")[0] ?? problem;
      byLayer.set(layer, [...(byLayer.get(layer) ?? []), `${describe(row.combo)}: ${problem}`]);
    }
  }
  const failures = [...byLayer].map(
    ([layer, list]) =>
      `${layer}: ${list.length} combinations, e.g.\n  ${list.slice(0, 3).join("\n  ")}`,
  );
  const charged = rows.filter((r) => r.purchase?.ok).length;
  const refusals = rows.filter((r) => r.cli?.ok === false).length;
  const onPages = rows.filter((r) => r.statics.length > 0).length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `price cross-test: ${proved} combinations proved (${charged} priced, charged and invoiced, ${refusals} refused alike by every layer; ${onPages} also read off the static pages; the real \`catalog quote\` process for ${sample.length}, its core for all ${rows.length}; ${new Set(combos.map((c) => c.plan)).size} plans, ${times.length} times, ${new Set(catalog.campaigns.map((c) => c.coupon.toLowerCase())).size} coupons) in ${seconds} s (${phases.join(", ")})`,
  );
  expect(failures).toEqual([]);
  expect(proved).toBe(rows.length);
});

// Issue 18, item 9: seats and essentials added mid-period are charged what the summary showed, and
// the subscription keeps its renewal date (e2e/pricing/mid-period-prices.ts).
test("mid-period additions: summary = pricing module = charge = invoice, renewal date kept", async () => {
  test.setTimeout(120_000);
  const { proved, problems } = await proveMidPeriodAdditions(loadCatalog(), distBuiltAt());
  console.log(`price cross-test, mid-period leg: ${proved} additions proved`);
  expect(problems).toEqual([]);
  expect(proved).toBeGreaterThan(0);
});
