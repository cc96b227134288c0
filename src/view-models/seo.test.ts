import { describe, expect, it } from "vitest";
import { makeCampaign, makeSpecCatalog } from "../domain/testing/builders.ts";
import { plansPageModel } from "./plans-page.ts";
import {
  faqJsonLd,
  jsonLdText,
  listLabel,
  plansJsonLd,
  plansPageMeta,
  robotsTxt,
  sitemapXml,
  tabPath,
} from "./seo.ts";

const site = new URL("https://example.com");
const catalog = makeSpecCatalog();
const nowMs = Date.UTC(2026, 5, 1);

describe("plansPageMeta", () => {
  it("names the open tab's plans and its own canonical path", () => {
    const meta = plansPageMeta(
      plansPageModel(catalog, nowMs, { variant: "plans", tab: "business" }),
    );
    expect(meta.path).toBe("/plans/business");
    expect(meta.title).toBe("Plans for teams: Business | Video Editor");
    expect(meta.description).toBe(
      "Compare Business: prices, storage, publishing time and features. Pay monthly, or yearly and save up to 50%.",
    );
    expect(plansPageMeta(plansPageModel(catalog, nowMs, { variant: "plans" })).path).toBe("/plans");
    expect(plansPageMeta(plansPageModel(catalog, nowMs, { variant: "pricing" })).path).toBe(
      "/pricing",
    );
  });
});

describe("plansJsonLd", () => {
  it("lists every card as a Product whose Offers carry the catalogue prices", () => {
    const ld = plansJsonLd(plansPageModel(catalog, nowMs, { variant: "plans" }), site) as {
      "@graph": {
        name: string;
        offers: { name: string; price: string; priceCurrency: string; url: string }[];
      }[];
    };
    const power = ld["@graph"].find((p) => p.name === "Video Editor Power");
    expect(power?.offers).toEqual([
      {
        "@type": "Offer",
        name: "Annual",
        price: "59.88",
        priceCurrency: "USD",
        url: "https://example.com/cart?p=buy&product=wv_single_12m&tier=personal#checkout",
      },
      {
        "@type": "Offer",
        name: "Monthly",
        price: "9.99",
        priceCurrency: "USD",
        url: "https://example.com/cart?p=buy&product=wv_single_1m&tier=personal#checkout",
      },
    ]);
    const schools = ld["@graph"].find((p) => p.name === "Video Editor Schools");
    expect(schools?.offers.map((o) => o.price)).toEqual(["374.00", "187.00"]);
  });

  it("offers a campaign's price while it runs, the regular one struck through, until its end", () => {
    const withCampaign = { ...catalog, campaigns: [makeCampaign()] };
    const offersAt = (atMs: number) => {
      const ld = plansJsonLd(plansPageModel(withCampaign, atMs, { variant: "plans" }), site) as {
        "@graph": { name: string; offers: Record<string, unknown>[] }[];
      };
      return ld["@graph"].find((p) => p.name === "Video Editor Power")?.offers ?? [];
    };
    // Built during Black Friday (27 Nov to 1 Dec 2026, first term of Power annual 29.94).
    const [annual, monthly] = offersAt(Date.UTC(2026, 10, 28));
    expect(annual).toEqual({
      "@type": "Offer",
      name: "Annual",
      price: "29.94",
      priceCurrency: "USD",
      url: "https://example.com/cart?p=buy&product=wv_single_12m&tier=personal#checkout",
      priceValidUntil: "2026-11-30",
      priceSpecification: {
        "@type": "UnitPriceSpecification",
        priceType: "https://schema.org/StrikethroughPrice",
        price: "59.88",
        priceCurrency: "USD",
      },
    });
    // The monthly plan is not in the campaign.
    expect(monthly).toMatchObject({ price: "9.99" });
    expect(monthly).not.toHaveProperty("priceValidUntil");
    // Built before it opens or after it closes: the regular price alone.
    for (const atMs of [Date.UTC(2026, 10, 26), Date.UTC(2026, 11, 1)]) {
      const [regular] = offersAt(atMs);
      expect(regular).toMatchObject({ price: "59.88" });
      expect(regular).not.toHaveProperty("priceSpecification");
    }
  });
});

describe("faqJsonLd and jsonLdText", () => {
  it("makes a FAQPage that cannot close its script element", () => {
    const text = jsonLdText(faqJsonLd({ general: [{ question: "Q</script>?", answer: "A" }] }));
    expect(text).not.toContain("</script>");
    expect(JSON.parse(text).mainEntity[0].name).toBe("Q</script>?");
  });
});

describe("sitemap and robots", () => {
  it("lists the static pages with absolute URLs", () => {
    const xml = sitemapXml(site);
    expect(xml).toContain("<loc>https://example.com/plans/business</loc>");
    expect(xml).toContain("<loc>https://example.com/faq</loc>");
  });

  it("points robots.txt at the sitemap and keeps the app out of search", () => {
    expect(robotsTxt(site)).toBe(
      "User-agent: *\nDisallow: /cart\nDisallow: /api/\nAllow: /\n\nSitemap: https://example.com/sitemap.xml\n",
    );
  });
});

describe("helpers", () => {
  it("words lists and tab paths", () => {
    expect(listLabel(["A"])).toBe("A");
    expect(listLabel(["A", "B", "C"])).toBe("A, B and C");
    expect(tabPath("personal")).toBe("/plans");
    expect(tabPath("education")).toBe("/plans/education");
  });
});
