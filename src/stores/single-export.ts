// Which single exports the checkout offers (spec 2.4 and 5, issue 22 item 10): the resolution
// filter of the URL (720, 1080, 2160 = true) keeps the exports it allows, so ?2160=true offers and
// selects the 4K export; a product the filter does not allow, or none, becomes the first allowed.
// The rule is plan-filters.ts's resolutionAllows, written here so the checkout's chunk does not
// carry the plans screen's filters (the JavaScript budget).
import type { ResolutionFilter } from "../domain/pricing/plan-filters.ts";

const SINGLE_EXPORTS = [
  { code: "single_export_hd", label: "HD (1080p)", resolution: "1080p" },
  { code: "single_export_4k", label: "4K (2160p)", resolution: "2160p" },
] as const;

export type SingleExport = (typeof SINGLE_EXPORTS)[number];

export function singleExportChoice(
  product: string | null,
  resolution: ResolutionFilter | null,
): { offered: SingleExport[]; chosen: SingleExport["code"] } {
  const offered = SINGLE_EXPORTS.filter(
    (e) => resolution === null || Number.parseInt(e.resolution, 10) >= Number(resolution),
  );
  // 2160 allows the 4K export: the list is never empty.
  const chosen = offered.find((e) => e.code === product) ?? offered[0] ?? SINGLE_EXPORTS[1];
  return { offered, chosen: chosen.code };
}
