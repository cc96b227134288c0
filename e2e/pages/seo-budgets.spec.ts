// Search metadata and the page budgets that need no Lighthouse: one inline script under 1 KB (and
// on pages showing a plan under a price experiment, its head script under 2 KB), no script or
// style files, HTML+CSS under 14 KB compressed, no request to another origin. Lighthouse
// scores are measured by `npm run bench` (scripts/bench-pages.ts).
import { gzipSync } from "node:zlib";
import { expect, type Page, test } from "@playwright/test";
import { formatPrice } from "../../src/domain/pricing/index.ts";
import { planByCode } from "./fixtures.ts";

const PAGES = ["/", "/plans", "/plans/business", "/plans/education", "/pricing", "/faq"];

// Both checks of a page read one load of it (several checks of one state share one load:
// e2e/README.md): the budgets from the load itself (its requests and its HTML as served), the
// search metadata from its head; on /plans, its JSON-LD as well. Soft, so that a failing budget
// does not hide a failing title.
for (const path of PAGES) {
  const title =
    path === "/plans"
      ? `${path}: title, description, canonical and Open Graph, within the JavaScript, size and third-party budgets, and the JSON-LD offers the catalogue's prices`
      : `${path}: title, description, canonical and Open Graph, within the JavaScript, size and third-party budgets`;
  test(title, async ({ page, baseURL }) => {
    const foreign: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(baseURL ?? "") && !request.url().startsWith("data:"))
        foreign.push(request.url());
    });
    const response = await page.goto(path);
    const html = (await response?.text()) ?? "";

    await test.step("title, description, canonical and Open Graph", async () => {
      const head = page.locator("head");
      await expect.soft(page).toHaveTitle(/\S.{20,}/);
      const description = await head.locator('meta[name="description"]').getAttribute("content");
      expect.soft(description?.length ?? 0).toBeGreaterThan(50);
      const canonical = new URL(
        (await head.locator('link[rel="canonical"]').getAttribute("href")) ?? "",
      );
      expect.soft(canonical.pathname).toBe(path);
      await expect
        .soft(head.locator('meta[property="og:url"]'))
        .toHaveAttribute("content", canonical.href);
      await expect
        .soft(head.locator('meta[property="og:title"]'))
        .toHaveAttribute("content", await page.title());
    });

    await test.step("within the JavaScript, size and third-party budgets", async () => {
      expect.soft(foreign).toEqual([]);
      expect.soft(await page.locator("script[src], link[rel=stylesheet]").count()).toBe(0);
      const bytesOf = (selector: string) =>
        page
          .locator(selector)
          .evaluateAll((scripts) =>
            scripts.reduce(
              (sum, s) => sum + new TextEncoder().encode(s.textContent ?? "").length,
              0,
            ),
          );
      expect.soft(await bytesOf("script:not([type]):not([data-experiments])")).toBeLessThan(1024);
      // The price experiments' head script, on pages showing a plan under one (decision 0090).
      expect.soft(await bytesOf("script[data-experiments]")).toBeLessThan(2048);
      expect.soft(gzipSync(Buffer.from(html), { level: 9 }).length).toBeLessThan(14 * 1024);
    });

    if (path === "/plans") {
      await test.step("the plans JSON-LD offers the catalogue's prices", () =>
        expectJsonLdOffersCatalogPrices(page));
    }
  });
}

/** The plans JSON-LD offers the catalogue's prices (campaign prices below the regular ones). */
async function expectJsonLdOffersCatalogPrices(page: Page): Promise<void> {
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
}

test("sitemap.xml lists the pages and robots.txt points at it", async ({ request }) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  for (const path of PAGES)
    expect(sitemap).toMatch(new RegExp(`<loc>https?://[^<]+${path === "/" ? "/" : path}</loc>`));
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
});

test("the production site ships no bench page: the bench's floor page is not found", async ({
  request,
}) => {
  // The floor page (scripts/bench-floor/) is in the bench's own build only.
  const answer = await request.get("/bench/floor/");
  expect(answer.status()).toBe(404);
});
