import type { Catalog } from "../catalog-schema.ts";
import { messages } from "../messages.ts";
import type { RuleIssue } from "./rule.ts";

/** Every plan priced by seat structures has exactly one of them marked default. */
export function oneDefaultSeatStructure({
  seatStructures,
}: Pick<Catalog, "seatStructures">): RuleIssue[] {
  const byPlan = new Map<string, number[]>();
  seatStructures.forEach((structure, index) => {
    for (const code of new Set(structure.appliesTo))
      byPlan.set(code, [...(byPlan.get(code) ?? []), index]);
  });
  const issues: RuleIssue[] = [];
  for (const [code, indexes] of byPlan) {
    const ids = indexes.map((i) => seatStructures[i]?.id ?? "");
    const defaults = indexes.filter((i) => seatStructures[i]?.default);
    const [first] = indexes;
    if (defaults.length === 0 && first !== undefined) {
      issues.push({
        ...messages.noDefaultStructure(code, ids),
        at: { entity: "seatStructures", index: first, field: ["default"] },
      });
    }
    const [, second] = defaults;
    if (second !== undefined) {
      issues.push({
        ...messages.manyDefaultStructures(
          code,
          defaults.map((i) => seatStructures[i]?.id ?? ""),
        ),
        at: { entity: "seatStructures", index: second, field: ["default"] },
      });
    }
  }
  return issues;
}
