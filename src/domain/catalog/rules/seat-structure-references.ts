import type { Catalog } from "../catalog-schema.ts";
import { closest } from "../closest.ts";
import { messages } from "../messages.ts";
import type { RuleIssue } from "./rule.ts";

/**
 * A plan's seatStructure names a structure that applies to it, and every code a structure
 * applies to is a plan.
 */
export function seatStructureReferences({
  plans,
  seatStructures,
}: Pick<Catalog, "plans" | "seatStructures">): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const ids = seatStructures.map((s) => s.id);
  plans.forEach((plan, index) => {
    if (plan.seatStructure === null) return;
    const at = { entity: "plans" as const, index, field: ["seatStructure"] };
    const structure = seatStructures.find((s) => s.id === plan.seatStructure);
    if (!structure) {
      issues.push({
        ...messages.unknownStructure(plan.seatStructure, ids, closest(plan.seatStructure, ids)),
        at,
      });
    } else if (!structure.appliesTo.includes(plan.code)) {
      issues.push({ ...messages.structureNotApplying(structure.id, plan.code), at });
    }
  });
  const codes = plans.map((plan) => plan.code);
  seatStructures.forEach((structure, index) => {
    structure.appliesTo.forEach((code, k) => {
      if (!codes.includes(code)) {
        issues.push({
          ...messages.unknownPlan(code, closest(code, codes)),
          at: { entity: "seatStructures", index, field: ["appliesTo", k] },
        });
      }
    });
  });
  return issues;
}
