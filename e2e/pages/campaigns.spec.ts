// Campaign windows on prerendered pages, with a set clock at both edges (docs/static-pages.md).
// The site built "as of" a time before the campaign opens and a time inside it (PAGES_NOW) is
// served locally and read with the browser's clock set by page.clock. Those two builds are made
// once before the browser tests start (scripts/pages-as-of.ts, in npm test's build stage), not in
// a worker here. The site that `npm test` built today is the third case: built after the window
// closed.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import { asOfDir, campaignUnderTest } from "../../scripts/pages-as-of.ts";
import { campaignDiscount, formatUsd, monthlyPrice } from "../../src/domain/pricing/index.ts";
import { createStaticHandler, sendNotFound } from "../../src/server/static-files.ts";
import { catalog, planByCode, visibleText } from "./fixtures.ts";

// A public campaign with a plans banner, and an annual plan it discounts.
const campaign = campaignUnderTest(catalog);
const code = campaign.products.find(
  (p) => planByCode(p).termDuration === 12 && planByCode(p).category === "personal",
);
if (!code) throw new Error(`${campaign.id} discounts no annual personal plan.`);
const plan = planByCode(code);
const campaignPrice = campaign.prices[code] ?? 0;
const banner = campaign.banners.find((b) => b.location === "plans");

const regular = `${formatUsd(monthlyPrice(plan.price, 12))} /month billed ${formatUsd(plan.price)} yearly`;
const deal = `${formatUsd(monthlyPrice(campaignPrice, 12))} /month billed ${formatUsd(campaignPrice)} for the first year`;
const discount = `Save ${formatUsd(campaignDiscount(plan.price, campaignPrice) ?? 0)}`;

type Site = { origin: string; server: Server };

/** Serves the site built as of another time (scripts/pages-as-of.ts). */
async function serveAsOf(name: "early" | "during", before: number): Promise<Site> {
  const { dir, atMs } = asOfDir(name);
  // What each test's name says about when the site was built.
  expect(atMs, `${name} built before ${new Date(before).toISOString()}`).toBeLessThan(before);
  const handler = createStaticHandler(dir);
  const server = createServer((req, res) => {
    if (!handler(req, res)) sendNotFound(dir, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function visit(page: Page, url: string, atMs: number): Promise<string> {
  await page.clock.setFixedTime(atMs);
  await page.goto(url);
  const card = page.locator("article.card", {
    has: page.getByRole("heading", { level: 3, name: plan.name, exact: true }),
  });
  return visibleText(card.locator(".m-annual"));
}

const bannerImage = (page: Page) => page.getByRole("img", { name: banner?.alt ?? "" });

test.describe("campaign windows", () => {
  let before: Site | undefined;
  let during: Site | undefined;

  test.beforeAll(async () => {
    before = await serveAsOf("early", campaign.validFrom);
    during = await serveAsOf("during", campaign.validTo);
    expect(asOfDir("during").atMs).toBeGreaterThanOrEqual(campaign.validFrom);
  });

  test.afterAll(() => {
    before?.server.close();
    during?.server.close();
  });

  test("built before the window: the regular price until the first millisecond of the window", async ({
    page,
  }) => {
    const text = await visit(page, `${before?.origin}/plans`, campaign.validFrom - 1);
    expect(text).toContain(regular);
    expect(text).not.toContain(campaign.name);
    await expect(bannerImage(page)).toBeHidden();
  });

  test("built before the window: the campaign price, its discount and its banner once it opens", async ({
    page,
  }) => {
    const text = await visit(page, `${before?.origin}/plans`, campaign.validFrom);
    expect(text).toContain(campaign.name);
    expect(text).toContain(deal);
    expect(text).toContain(discount);
    expect(text).not.toContain(regular);
    await expect(bannerImage(page)).toBeVisible();
  });

  test("built before the window: still the campaign on its last millisecond", async ({ page }) => {
    const text = await visit(page, `${before?.origin}/plans`, campaign.validTo - 1);
    expect(text).toContain(deal);
    await expect(bannerImage(page)).toBeVisible();
  });

  test("the banner's hot spots are links of their own over the image, named and aimed", async ({
    page,
  }) => {
    // Issue 22, item 10: each hot spot of spec 3.9 is its own link, over its area of the image.
    const spots = banner?.hotSpots ?? [];
    expect(spots.length, `${campaign.id}'s plans banner has hot spots`).toBeGreaterThan(0);
    await visit(page, `${before?.origin}/plans`, campaign.validFrom);
    const image = await bannerImage(page).boundingBox();
    expect(image).not.toBeNull();
    for (const spot of spots) {
      const link = page.getByRole("link", { name: spot.label, exact: true });
      await expect(link).toHaveAttribute("href", spot.targetUrl);
      const box = await link.boundingBox();
      if (!box || !image) throw new Error("no box");
      // Where the catalogue puts it, at the width the image is drawn (1200 px wide originally).
      const scale = image.width / 1200;
      expect(Math.abs(box.x - (image.x + spot.x * scale))).toBeLessThanOrEqual(1);
      expect(Math.abs(box.y - (image.y + spot.y * scale))).toBeLessThanOrEqual(1);
      expect(Math.abs(box.width - spot.width * scale)).toBeLessThanOrEqual(1);
      // The hot spot is what a click there reaches, not the banner's own link.
      const hit = await page.evaluate(
        ({ x, y }) => document.elementFromPoint(x, y)?.getAttribute("aria-label") ?? null,
        { x: box.x + box.width / 2, y: box.y + box.height / 2 },
      );
      expect(hit).toBe(spot.label);
      await link.focus();
      await expect(link).toBeFocused();
    }
  });

  test("built during the window: back to the regular price the moment it closes", async ({
    page,
  }) => {
    const text = await visit(page, `${during?.origin}/plans`, campaign.validTo);
    expect(text).toContain(regular);
    expect(text).not.toContain(campaign.name);
    await expect(bannerImage(page)).toBeHidden();
  });

  test("built during the window: the campaign shows even without JavaScript", async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${during?.origin}/plans`);
    const card = page.locator("article.card", {
      has: page.getByRole("heading", { level: 3, name: plan.name, exact: true }),
    });
    await expect(card.locator(".m-annual")).toContainText(campaign.name);
    await context.close();
  });

  test("built after the window (today's build): no trace of the expired price, whatever the clock", async ({
    page,
  }) => {
    const text = await visit(page, "/plans", campaign.validFrom + 1);
    expect(text).toContain(regular);
    expect(await page.content()).not.toContain(campaign.name);
  });
});
