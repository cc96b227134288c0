import type { Catalog } from "../catalog-schema.ts";
import { closest } from "../closest.ts";
import { messages } from "../messages.ts";
import type { RuleIssue } from "./rule.ts";

/** Every plan an experiment prices is a product code of catalog/plans/. */
export function experimentPlansExist({
  experiments,
  plans,
}: Pick<Catalog, "experiments" | "plans">): RuleIssue[] {
  const codes = plans.map((plan) => plan.code);
  const issues: RuleIssue[] = [];
  (experiments ?? []).forEach((experiment, index) => {
    experiment.plans.forEach((code, p) => {
      if (codes.includes(code)) return;
      issues.push({
        ...messages.unknownPlan(code, closest(code, codes)),
        at: { entity: "experiments", index, field: ["plans", p] },
      });
    });
  });
  return issues;
}

/** An experiment's window starts before it ends (from inclusive, to exclusive). */
export function experimentWindows({ experiments }: Pick<Catalog, "experiments">): RuleIssue[] {
  const issues: RuleIssue[] = [];
  (experiments ?? []).forEach((experiment, index) => {
    if (experiment.from >= experiment.to) {
      issues.push({
        ...messages.experimentWindowEmpty(experiment.from, experiment.to),
        at: { entity: "experiments", index, field: ["to"] },
      });
    }
  });
  return issues;
}

/**
 * At any moment a plan is priced by one experiment at most: the pricing asks for *the* running
 * experiment of a plan, and a visitor's price must not depend on which one it found first.
 */
export function experimentsDoNotOverlap({
  experiments,
}: Pick<Catalog, "experiments">): RuleIssue[] {
  const list = experiments ?? [];
  const issues: RuleIssue[] = [];
  list.forEach((experiment, index) => {
    for (const earlier of list.slice(0, index)) {
      const from = Math.max(earlier.from, experiment.from);
      const to = Math.min(earlier.to, experiment.to);
      if (from >= to) continue;
      experiment.plans.forEach((code, p) => {
        if (!earlier.plans.includes(code)) return;
        issues.push({
          ...messages.experimentOverlap(code, earlier.id, from, to),
          at: { entity: "experiments", index, field: ["plans", p] },
        });
      });
    }
  });
  return issues;
}
