import type { Catalog } from "../catalog-schema.ts";
import { messages } from "../messages.ts";
import type { RuleIssue } from "./rule.ts";

/** Bands start at 1 seat, never run backwards, and follow each other with no gap or overlap. */
export function seatBandsContiguous({
  seatStructures,
}: Pick<Catalog, "seatStructures">): RuleIssue[] {
  const issues: RuleIssue[] = [];
  seatStructures.forEach((structure, index) => {
    structure.bands.forEach((band, b) => {
      const at = (field: string) => ({
        entity: "seatStructures" as const,
        index,
        field: ["bands", b, field],
      });
      if (band.from > band.to) issues.push({ ...messages.bandReversed(band), at: at("to") });
      const previous = structure.bands[b - 1];
      if (!previous) {
        if (band.from !== 1) issues.push({ ...messages.bandStart(band.from), at: at("from") });
      } else if (band.from > previous.to + 1) {
        issues.push({ ...messages.bandGap(band.from, previous.to), at: at("from") });
      } else if (band.from <= previous.to) {
        issues.push({ ...messages.bandOverlap(band.from, previous.to), at: at("from") });
      }
    });
  });
  return issues;
}
