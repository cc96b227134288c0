// Search and sharing metadata of the static pages: titles, descriptions, canonical paths,
// schema.org JSON-LD (prices from the plan cards, so from the catalogue), sitemap and robots.txt.
import type { Catalog } from "../domain/catalog/catalog-schema.ts";
import type { PlanCard } from "./plan-card.ts";
import type { PlansPageModel, TabId } from "./plans-page.ts";
import { SITE_NAME } from "./site.ts";

export type PageMeta = {
  title: string;
  description: string;
  /** Canonical path; the layout makes it absolute with the configured site URL. */
  path: string;
  /** Keep the page out of search results (the 404 page). */
  noindex?: boolean;
};

/** The configured site (`site` in astro.config.mjs), or the local server when none is set. */
export function siteUrl(site: URL | undefined): URL {
  return site ?? new URL("http://localhost:4321");
}

/** The pages listed in sitemap.xml, in the order a visitor meets them. */
export const SITEMAP_PATHS = [
  "/",
  "/plans",
  "/plans/business",
  "/plans/education",
  "/pricing",
  "/faq",
];

/** "A, B and C" */
export function listLabel(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** The tab's own URL: personal is /plans itself, the others /plans/{tab}. */
export function tabPath(tab: TabId): string {
  return tab === "personal" ? "/plans" : `/plans/${tab}`;
}

export function plansPageMeta(model: PlansPageModel): PageMeta {
  const tab = model.tabs.find((t) => t.id === model.openTab) ?? model.tabs[0];
  const names = listLabel(tab?.cards.map((card) => card.title) ?? []);
  if (model.variant === "pricing") {
    const all = listLabel(model.tabs.map((t) => t.label.toLowerCase()));
    return {
      title: `Pricing: free, ${all} plans | ${SITE_NAME}`,
      description: `Start free or try a paid plan. Compare prices of ${listLabel(
        model.tabs.flatMap((t) => t.cards.map((c) => c.title)),
      )}, billed monthly or yearly.`,
      path: "/pricing",
    };
  }
  const saving = model.billing.options[0]?.hint;
  return {
    title: `${tab?.heading ?? "Plans"}: ${names} | ${SITE_NAME}`,
    description: `Compare ${names}: prices, storage, publishing time and features${
      tab?.hasBillingSwitch && saving ? `. Pay monthly, or yearly and ${saving}` : ""
    }.`,
    path: tabPath(model.openTab),
  };
}

type JsonLd = Record<string, unknown>;

function productLd(card: PlanCard, siteUrl: URL): JsonLd {
  return {
    "@type": "Product",
    name: `${SITE_NAME} ${card.title}`,
    description: card.subtitle,
    brand: { "@type": "Brand", name: SITE_NAME },
    offers: card.options.map(({ offer }) => ({
      "@type": "Offer",
      name: offer.name,
      price: offer.price,
      priceCurrency: "USD",
      url: new URL(offer.url, siteUrl).href,
      // A campaign's price is the offer while it runs; the regular one is what it strikes through.
      ...(offer.campaign && {
        priceValidUntil: offer.campaign.validUntil,
        priceSpecification: {
          "@type": "UnitPriceSpecification",
          priceType: "https://schema.org/StrikethroughPrice",
          price: offer.campaign.regularPrice,
          priceCurrency: "USD",
        },
      }),
    })),
  };
}

/** schema.org Product and Offer entries for every plan card of the page. */
export function plansJsonLd(model: PlansPageModel, siteUrl: URL): JsonLd {
  return {
    "@context": "https://schema.org",
    "@graph": model.tabs.flatMap((tab) => tab.cards.map((card) => productLd(card, siteUrl))),
  };
}

/** schema.org FAQPage of the FAQ lists. */
export function faqJsonLd(faqs: Catalog["faqs"]): JsonLd {
  return {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: Object.values(faqs)
      .flat()
      .map((faq) => ({
        "@type": "Question",
        name: faq.question,
        acceptedAnswer: { "@type": "Answer", text: faq.answer },
      })),
  };
}

/** JSON safe inside <script type="application/ld+json">: no "</script>" can close it early. */
export function jsonLdText(data: JsonLd): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}

function xmlEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function sitemapXml(siteUrl: URL, paths: readonly string[] = SITEMAP_PATHS): string {
  const urls = paths.map(
    (path) => `<url><loc>${xmlEscape(new URL(path, siteUrl).href)}</loc></url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>\n`;
}

/** Crawl the marketing pages; the checkout app and the API are not for search. */
export function robotsTxt(siteUrl: URL): string {
  return `User-agent: *\nDisallow: /cart\nDisallow: /api/\nAllow: /\n\nSitemap: ${new URL("/sitemap.xml", siteUrl).href}\n`;
}
