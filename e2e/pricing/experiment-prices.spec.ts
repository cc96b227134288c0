// The price cross-test for experiment groups (issue 36, "Done when"): a visitor assigned to a
// group of the catalogue's running experiment sees that group's price on the static plans page
// (read in the browser on a clock inside the window), on the checkout's plans screen, in the
// checkout's order summary, in what the sandbox charged and on the invoice; the same for the
// control, so both groups are proved and the test fails if the groups are mixed up. A visitor
// with JavaScript off sees the control's price. The visitors' groups come from the one groupFor.
//
// It needs a server whose clock is inside the experiment's window: an in-process server on the
// real catalogue with a set clock, serving the built site on the same origin as its API (the
// page's exposure beacon and the checkout call it), as e2e/serve.ts serves them. The site is
// dist/ while it was built before the experiment ended (it carries the experiment then), else
// the site built as of before every campaign edge (scripts/pages-as-of.ts), which carries it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { asOfDir } from "../../scripts/pages-as-of.ts";
import { EXPOSURES_PATH } from "../../src/browser/experiment-head.ts";
import { api as contract } from "../../src/contract/index.ts";
import type { Experiment } from "../../src/domain/catalog/catalog-schema.ts";
import { CONTROL } from "../../src/domain/catalog/control.ts";
import { groupFor, priceSetOfGroup } from "../../src/domain/experiments/assignment.ts";
import { formatUsd, quote } from "../../src/domain/pricing/index.ts";
import { loadCatalog } from "../../src/server/catalog.ts";
import { testClock } from "../../src/server/clock.ts";
import { ExperimentEvents } from "../../src/server/db/experiment-events.ts";
import { createStaticHandler } from "../../src/server/static-files.ts";
import { startTestServer, type TestServer } from "../../src/server/testing/harness.ts";
import { browserApi, uniqueEmail } from "../cart/api-helpers.ts";
import { GOAL, recordShifts, shifts } from "../cart/layout-shifts.ts";
import { fillCard, shownTotal } from "../cart/purchase-helpers.ts";
import {
  chargesOf,
  documentTotal,
  newBuyer,
  purchase,
  summaryOf,
  visitorClient,
} from "./server-prices.ts";
import { readOffers } from "./static-prices.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const catalog = loadCatalog();
const EXPERIMENT = "professional-price-2027";
const experiment = catalog.experiments?.find((x) => x.id === EXPERIMENT) as Experiment;
const ANNUAL = "wv_bizindiv_12m";
const MONTHLY = "wv_bizindiv_1m";
/** Ten days into the window, on the server's clock and the visitor's. */
const atMs = (experiment?.from ?? 0) + 10 * 86_400_000;

/** The price of `code` for a visitor in `group`, from the pricing module (the group's set). */
function groupPrice(code: string, group: string): number {
  const priced = quote(catalog, {
    plan: code,
    atMs,
    priceGroup: priceSetOfGroup(group) ?? undefined,
  });
  if (!priced.ok) throw new Error(`${code}: ${priced.error.message}`);
  return priced.quote.price;
}

/** Visitor ids as browsers make them (UUIDs), the first `n` that groupFor puts in `group`. */
function visitorsIn(group: string, n: number): string[] {
  const found: string[] = [];
  for (let i = 0; found.length < n && i < 10_000; i++) {
    const id = `0e2e0000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    if (groupFor(experiment, id) === group) found.push(id);
  }
  if (found.length < n) throw new Error(`fewer than ${n} visitors in ${group}`);
  return found;
}

const GROUPS = experiment ? experiment.groups.map((g) => g.set) : [];
const visitors = new Map(GROUPS.map((group) => [group, visitorsIn(group, 4)]));
const visitor = (group: string, i: number) => visitors.get(group)?.[i] ?? "";

let server: TestServer | undefined;
let dataDir = "";
const origin = () => server?.running.url ?? "";

test.beforeAll(async () => {
  expect(experiment, `the catalogue runs ${EXPERIMENT}`).toBeDefined();
  expect(GROUPS).toContain(CONTROL);
  // A page carries the experiment only if it was built before the window closed.
  const html = readFileSync(join(root, "dist/plans/index.html"), "utf8");
  const builtAt = Date.parse(
    /<meta name="catalog-built-at" content="([^"]+)"/.exec(html)?.[1] ?? "",
  );
  const site =
    builtAt < experiment.to ? { dir: join(root, "dist"), atMs: builtAt } : asOfDir("early");
  expect(site.atMs, "the site was built before the experiment ended").toBeLessThan(experiment.to);
  // Each group's price differs from the control's, so a mixed-up group fails the test.
  for (const group of GROUPS.filter((g) => g !== CONTROL)) {
    expect(groupPrice(ANNUAL, group)).not.toBe(groupPrice(ANNUAL, CONTROL));
  }
  dataDir = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "experiment-prices-"));
  server = await startTestServer({
    catalog,
    seed: false,
    rateLimitScale: 1_000_000,
    clock: testClock(atMs),
    staticHandler: createStaticHandler(site.dir),
    env: { DATA_DIR: dataDir },
  });
});

test.afterAll(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A browser of `visitorId` whose clock is inside the window. */
async function visit(context: BrowserContext, page: Page, visitorId: string): Promise<void> {
  await context.addCookies([{ name: "vid", value: visitorId, url: origin() }]);
  await page.clock.setFixedTime(atMs);
}

/** The events the server recorded for a visitor: `kind group`, in the order of the kinds. */
async function eventsOf(visitorId: string): Promise<string[]> {
  const db = (server as TestServer).running.deps.db;
  const events = await ExperimentEvents.ofVisitor(db, visitorId);
  return events
    .filter((e) => e.experimentId === EXPERIMENT)
    .map((e) => `${e.kind} ${e.group}`)
    .sort();
}

/** The Professional card's annual price as the visitor reads it ("$239.88" billed yearly). */
async function staticPrices(page: Page): Promise<{ annual?: number; monthly?: number }> {
  const offers = await readOffers(page, atMs);
  return { annual: offers.get(ANNUAL)?.termPrice, monthly: offers.get(MONTHLY)?.termPrice };
}

for (const group of GROUPS) {
  test(`a visitor in the ${group} group sees its price on the static page, in the checkout, in the charge and on the invoice`, async ({
    context,
    page,
  }) => {
    test.setTimeout(120_000);
    const price = groupPrice(ANNUAL, group);
    const shown = formatUsd(price);
    await visit(context, page, visitor(group, 0));

    await test.step("the static plans page shows the group's prices, and says it was seen", async () => {
      const beacon = page.waitForRequest((r) => new URL(r.url()).pathname === EXPOSURES_PATH);
      await page.goto(`${origin()}/plans`);
      await expect(page.locator("html")).toHaveAttribute("data-xp", `${EXPERIMENT}:${group}`);
      expect(await staticPrices(page)).toEqual({
        annual: price,
        monthly: groupPrice(MONTHLY, group),
      });
      // Its body (a Blob, which the browser does not show the test) is the unit tests'
      // (src/browser/experiment-head.test.ts); what the server recorded is checked below.
      const sent = await beacon;
      expect([sent.method(), sent.headers()["content-type"]]).toEqual(["POST", "application/json"]);
      // The server recorded the exposure in the page's group, before the checkout priced anything.
      await expect.poll(() => eventsOf(visitor(group, 0))).toEqual([`exposure ${group}`]);
    });

    const api = browserApi(context, origin());
    await api.signUp({ email: uniqueEmail(`xp-${group}`) });

    await test.step("the checkout's plans screen and order summary show the server's group price", async () => {
      await page.goto(`${origin()}/cart#plans`);
      await page.getByLabel("Annual").check();
      const professional = page.locator(`[data-plan=${ANNUAL}]`);
      await expect(professional).toContainText(`${shown} per year`);
      await professional.getByRole("link", { name: "Choose Professional" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout");
      expect(await shownTotal(page)).toBe(shown);
    });

    await test.step("the card is charged that price, and the invoice says it", async () => {
      await fillCard(page, "4242 4242 4242 4242");
      await page.getByRole("button", { name: `Pay ${shown}` }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment complete");
      await expect(page.getByTestId("paid")).toHaveText(shown);
      const invoices = await api.call(contract.invoices, { params: { page: 1 } });
      expect(invoices.map((i) => [i.price, i.amountPaid])).toEqual([[price, price]]);
      const orderId = invoices[0]?.orderId ?? "";
      expect((await chargesOf(server as TestServer, orderId)).map((c) => c.amount)).toEqual([
        price,
      ]);
      const documents = await api.call(contract.invoiceDocuments, {});
      const invoice = documents.documents.find(
        (d) => d.orderId === orderId && d.kind === "invoice",
      );
      expect(invoice?.total).toBe(price);
      const printed = await api.request.get(`${origin()}${invoice?.htmlUrl ?? ""}`);
      expect(documentTotal(await printed.text())).toBe(price);
      // Exposure, checkout and purchase, once each, in the group (the design's events).
      expect(await eventsOf(visitor(group, 0))).toEqual(
        [`checkout ${group}`, `exposure ${group}`, `purchase ${group}`].sort(),
      );
    });
  });

  test(`the server prices both Professional plans for a ${group} visitor at the group's prices, to the invoice`, async () => {
    const running = server as TestServer;
    for (const [i, code] of [ANNUAL, MONTHLY].entries()) {
      const price = groupPrice(code, group);
      const visitorId = visitor(group, i + 1);
      const looker = visitorClient(running, visitorId);
      const combination = { plan: code, seats: null, coupon: null };
      expect(await summaryOf(looker, combination)).toMatchObject({ ok: true, total: price });
      const buyer = await newBuyer(running, { visitorId });
      expect(await purchase(running, buyer, combination, price)).toEqual({
        ok: true,
        total: price,
        charged: price,
        invoicePrice: price,
        invoicePaid: price,
        invoices: 1,
        invoiceRow: price,
        invoiceDocument: price,
      });
    }
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a visitor of the sample group sees the control's prices, the only ones shown", async ({
    context,
    page,
  }) => {
    const sample = GROUPS.find((g) => g !== CONTROL) ?? "";
    await context.addCookies([{ name: "vid", value: visitor(sample, 0), url: origin() }]);
    await page.goto(`${origin()}/plans`);
    expect(await staticPrices(page)).toEqual({
      annual: groupPrice(ANNUAL, CONTROL),
      monthly: groupPrice(MONTHLY, CONTROL),
    });
    const professional = page.locator("article.card", {
      has: page.getByRole("heading", { level: 3, name: "Professional", exact: true }),
    });
    await expect(professional).toContainText(
      `billed ${formatUsd(groupPrice(ANNUAL, CONTROL))} yearly`,
    );
    await expect(professional).not.toContainText(formatUsd(groupPrice(ANNUAL, sample)), {
      useInnerText: true,
    });
  });
});

// The static plans page carries every group's prices of a plan under a price experiment; the head
// script names the visitor's group on <html> before the first paint (decision 0090), so a visitor
// of any group, the variant's above all, sees a page that never moves (UX.md: at most 0.01).
test.describe("on a phone", () => {
  // Lighthouse's mobile screen (Moto G Power), as e2e/cart/layout-shift.spec.ts.
  test.use({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });

  for (const group of GROUPS) {
    test(`the static plans page does not move for a visitor of the ${group} group`, async ({
      context,
      page,
    }) => {
      await recordShifts(page);
      await visit(context, page, visitor(group, 3));
      await page.goto(`${origin()}/plans`);
      await expect(page.locator("html")).toHaveAttribute("data-xp", `${EXPERIMENT}:${group}`);
      await page.waitForLoadState("networkidle");
      const { total, sources } = await shifts(page);
      expect(total, `${group}: ${sources.join("; ")}`).toBeLessThanOrEqual(GOAL);
    });
  }
});
