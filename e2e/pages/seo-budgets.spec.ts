// Search metadata and the page budgets that need no Lighthouse: one inline script under 1 KB, no
// script or style files, HTML+CSS under 14 KB compressed, no request to another origin. Lighthouse
// scores are measured by `npm run bench` (scripts/bench-pages.ts).
import { gzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { formatPrice } from "../../src/domain/pricing/index.ts";
import { planByCode } from "./fixtures.ts";

const PAGES = ["/", "/plans", "/plans/business", "/plans/education", "/pricing", "/faq"];

for (const path of PAGES) {
  test(`${path}: title, description, canonical and Open Graph`, async ({ page }) => {
    await page.goto(path);
    const head = page.locator("head");
    await expect(page).toHaveTitle(/\S.{20,}/);
    const description = await head.locator('meta[name="description"]').getAttribute("content");
    expect(description?.length ?? 0).toBeGreaterThan(50);
    const canonical = new URL(
      (await head.locator('link[rel="canonical"]').getAttribute("href")) ?? "",
    );
    expect(canonical.pathname).toBe(path);
    await expect(head.locator('meta[property="og:url"]')).toHaveAttribute(
      "content",
      canonical.href,
    );
    await expect(head.locator('meta[property="og:title"]')).toHaveAttribute(
      "content",
      await page.title(),
    );
  });

  test(`${path}: within the JavaScript, size and third-party budgets`, async ({
    page,
    baseURL,
  }) => {
    const foreign: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(baseURL ?? "") && !request.url().startsWith("data:"))
        foreign.push(request.url());
    });
    const response = await page.goto(path);
    const html = (await response?.text()) ?? "";
    expect(foreign).toEqual([]);
    expect(await page.locator("script[src], link[rel=stylesheet]").count()).toBe(0);
    const inline = await page
      .locator("script:not([type])")
      .evaluateAll((scripts) =>
        scripts.reduce((sum, s) => sum + new TextEncoder().encode(s.textContent ?? "").length, 0),
      );
    expect(inline).toBeLessThan(1024);
    expect(gzipSync(Buffer.from(html), { level: 9 }).length).toBeLessThan(14 * 1024);
  });
}

test("the plans JSON-LD offers the catalogue's prices", async ({ page }) => {
  await page.goto("/plans");
  const data = JSON.parse(
    (await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}",
  ) as {
    "@graph": {
      "@type": string;
      offers: {
        price: string;
        priceCurrency: string;
        url: string;
        priceValidUntil?: string;
        priceSpecification?: { price: string };
      }[];
    }[];
  };
  const offers = data["@graph"].flatMap((product) => product.offers);
  expect(offers.length).toBeGreaterThan(5);
  for (const offer of offers) {
    const code = new URL(offer.url).searchParams.get("product") ?? "";
    const regular = formatPrice(planByCode(code).price).replaceAll(",", "");
    expect(offer.priceCurrency).toBe("USD");
    if (offer.priceValidUntil === undefined) {
      expect(offer.price, code).toBe(regular);
    } else {
      // Built during a campaign: its price, below the regular one it strikes through.
      expect(offer.priceSpecification?.price, code).toBe(regular);
      expect(Number(offer.price), code).toBeLessThan(Number(regular));
    }
  }
});

test("sitemap.xml lists the pages and robots.txt points at it", async ({ request }) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  for (const path of PAGES)
    expect(sitemap).toMatch(new RegExp(`<loc>https?://[^<]+${path === "/" ? "/" : path}</loc>`));
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
});
