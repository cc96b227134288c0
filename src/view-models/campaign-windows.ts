// Campaign windows on prerendered pages. A page is built once and read for weeks, so it carries
// every campaign price that is current or still to come when it is built, each with its window;
// a tiny inline script (enhance-script.ts) shows each one only inside its window on the visitor's
// clock. Expired campaigns are left out. See docs/static-pages.md.
import type { Catalog } from "../domain/catalog/catalog-schema.ts";
import { isCampaignActive, type Quote, quote } from "../domain/pricing/index.ts";

/** A time window in ms: from inclusive, to exclusive, like a campaign's validFrom / validTo. */
export type TimeWindow = { from: number; to: number };

/** "from to from to ...": the data-attribute form the inline script reads. */
export function windowsAttr(windows: readonly TimeWindow[]): string {
  return windows.map((w) => `${w.from} ${w.to}`).join(" ");
}

export function isInWindow(window: TimeWindow, atMs: number): boolean {
  return window.from <= atMs && atMs < window.to;
}

export type CampaignSegment = TimeWindow & {
  campaign: NonNullable<Quote["campaign"]>;
};

/**
 * The windows, from `nowMs` on, in which a public campaign prices `code` for an anonymous
 * visitor, with that campaign. The pricing module decides (quote() at the start of each span
 * between campaign edges), so overlapping campaigns resolve exactly as the checkout resolves them;
 * adjacent spans of the same campaign are merged.
 */
export function campaignSegments(
  catalog: Catalog,
  code: string,
  nowMs: number,
  priceGroup?: string,
): CampaignSegment[] {
  const edges = new Set<number>();
  for (const campaign of catalog.campaigns) {
    if (!campaign.products.includes(code) || campaign.validTo <= nowMs) continue;
    edges.add(campaign.validFrom);
    edges.add(campaign.validTo);
  }
  const sorted = [...edges].sort((a, b) => a - b);
  const segments: CampaignSegment[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    const from = sorted[i] as number;
    const to = sorted[i + 1] as number;
    if (to <= nowMs) continue;
    const result = quote(catalog, { plan: code, atMs: from, priceGroup });
    const campaign = result.ok ? result.quote.campaign : null;
    if (campaign === null) continue;
    const last = segments.at(-1);
    if (
      last &&
      last.to === from &&
      last.campaign.id === campaign.id &&
      last.campaign.price === campaign.price
    ) {
      last.to = to;
    } else {
      segments.push({ from, to, campaign });
    }
  }
  return segments;
}

export type BannerModel = {
  src: string;
  alt: string;
  height: number;
  href: string;
  /** windowsAttr of the campaign's window. */
  window: string;
  visibleAtBuild: boolean;
  /**
   * The banner's hot spots (spec 3.9), each its own link over the image: its place in percent of
   * the image (1200 wide, `height` high), so it stays over the same area at any width.
   */
  hotSpots: {
    href: string;
    label: string;
    left: number;
    top: number;
    width: number;
    height: number;
  }[];
};

/** A share of `whole` in percent, to two decimals. */
const percent = (part: number, whole: number) => Math.round((part / whole) * 10_000) / 100;

/**
 * Banners of the plans location for public campaigns that have not ended at `nowMs`. Visitors of
 * static pages are anonymous: they see untargeted campaigns and banners for every segment.
 */
/** The width banner images are drawn for (the height is the banner's own). */
export const BANNER_WIDTH = 1200;

export function plansBanners(catalog: Catalog, nowMs: number): BannerModel[] {
  return catalog.campaigns
    .filter((campaign) => !campaign.targeted && campaign.validTo > nowMs)
    .flatMap((campaign) =>
      campaign.banners
        .filter((banner) => banner.location === "plans" && banner.segment === "all")
        .map((banner) => ({
          src: banner.imgUrl,
          alt: banner.alt,
          height: banner.height,
          href: banner.targetUrl,
          window: windowsAttr([{ from: campaign.validFrom, to: campaign.validTo }]),
          visibleAtBuild: isCampaignActive(campaign, nowMs),
          hotSpots: banner.hotSpots.map((spot) => ({
            href: spot.targetUrl,
            label: spot.label,
            left: percent(spot.x, BANNER_WIDTH),
            top: percent(spot.y, banner.height),
            width: percent(spot.width, BANNER_WIDTH),
            height: percent(spot.height, banner.height),
          })),
        })),
    );
}
