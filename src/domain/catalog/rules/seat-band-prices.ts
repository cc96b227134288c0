import type { Catalog, SeatBandEntry } from "../catalog-schema.ts";
import { messages } from "../messages.ts";
import type { RuleIssue } from "./rule.ts";

/**
 * Each band has exactly one of `total` (the order total for any seat count in the band) and
 * `perSeat` (graduated: the total at the top of the band before, plus each seat in this band at
 * perSeat), and the order total never falls as the seat count rises.
 */
export function seatBandPrices({ seatStructures }: Pick<Catalog, "seatStructures">): RuleIssue[] {
  const issues: RuleIssue[] = [];
  seatStructures.forEach((structure, index) => {
    // Total for the top seat count of the band before; undefined once a band cannot be priced.
    let previousTop: number | undefined = 0;
    let previous: SeatBandEntry | undefined;
    structure.bands.forEach((band, b) => {
      const at = (field: string) => ({
        entity: "seatStructures" as const,
        index,
        field: ["bands", b, field],
      });
      if (band.total !== null && band.perSeat !== null) {
        issues.push({ ...messages.bandPriceBoth(band), at: at("perSeat") });
        previousTop = undefined;
      } else if (band.total === null && band.perSeat === null) {
        issues.push({ ...messages.bandPriceNone(band), at: at("from") });
        previousTop = undefined;
      } else if (band.total !== null) {
        if (previous && previousTop !== undefined && band.total < previousTop) {
          issues.push({
            ...messages.bandTotalFalls(band, band.total, previousTop, previous.to),
            at: at("total"),
          });
        }
        previousTop = band.total;
      } else if (band.perSeat !== null && previousTop !== undefined) {
        previousTop += (band.to - band.from + 1) * band.perSeat;
      }
      previous = band;
    });
  });
  return issues;
}
