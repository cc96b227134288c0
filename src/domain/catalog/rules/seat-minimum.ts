import type { Catalog } from "../catalog-schema.ts";
import { messages } from "../messages.ts";
import type { RuleIssue } from "./rule.ts";

/** A structure's minimumSeats is a seat count its bands price. */
export function seatMinimumWithinBands({
  seatStructures,
}: Pick<Catalog, "seatStructures">): RuleIssue[] {
  const issues: RuleIssue[] = [];
  seatStructures.forEach((structure, index) => {
    const from = Math.min(...structure.bands.map((band) => band.from));
    const to = structure.maximumSeats;
    if (structure.minimumSeats < from || structure.minimumSeats > to) {
      issues.push({
        ...messages.minimumOutside(structure.minimumSeats, from, to),
        at: { entity: "seatStructures", index, field: ["minimumSeats"] },
      });
    }
  });
  return issues;
}
