import { type Catalog, CONTROL } from "../catalog-schema.ts";
import { closest } from "../closest.ts";
import { messages } from "../messages.ts";
import type { RuleIssue } from "./rule.ts";

/**
 * An experiment's groups: shares that add up to 100 (the assignment maps 100 % of visitors onto
 * them), each group the control or a price set, none twice, and at least one price set to test.
 */
export function experimentGroups({
  experiments,
  priceSets,
}: Pick<Catalog, "experiments" | "priceSets">): RuleIssue[] {
  const known = [CONTROL, ...priceSets.map((set) => set.id)];
  const issues: RuleIssue[] = [];
  (experiments ?? []).forEach((experiment, index) => {
    const at = (...field: (string | number)[]) => ({
      entity: "experiments" as const,
      index,
      field,
    });
    const total = experiment.groups.reduce((sum, group) => sum + group.share, 0);
    if (total !== 100) issues.push({ ...messages.experimentSharesNot100(total), at: at("groups") });
    const seen = new Set<string>();
    experiment.groups.forEach((group, g) => {
      if (!known.includes(group.set)) {
        issues.push({
          ...messages.experimentGroupUnknown(group.set, closest(group.set, known)),
          at: at("groups", g, "set"),
        });
      }
      if (seen.has(group.set)) {
        issues.push({ ...messages.experimentGroupTwice(group.set), at: at("groups", g, "set") });
      }
      seen.add(group.set);
    });
    if (experiment.groups.every((group) => group.set === CONTROL)) {
      issues.push({ ...messages.experimentNoChallenger(), at: at("groups") });
    }
  });
  return issues;
}

/**
 * Each price set of an experiment prices at least one of its plans: a set with no priceTests entry
 * for them would show its group the control prices, and the experiment would compare nothing.
 */
export function experimentSetsPricePlans({
  experiments,
  plans,
  priceSets,
}: Pick<Catalog, "experiments" | "plans" | "priceSets">): RuleIssue[] {
  const sets = new Set(priceSets.map((set) => set.id));
  const issues: RuleIssue[] = [];
  (experiments ?? []).forEach((experiment, index) => {
    const covered = plans.filter((plan) => experiment.plans.includes(plan.code));
    experiment.groups.forEach((group, g) => {
      // An unknown set is reported by experimentGroups; once is enough.
      if (group.set === CONTROL || !sets.has(group.set)) return;
      if (covered.some((plan) => plan.priceTests[group.set] !== undefined)) return;
      issues.push({
        ...messages.experimentSetPricesNoPlan(group.set, experiment.plans),
        at: { entity: "experiments", index, field: ["groups", g, "set"] },
      });
    });
  });
  return issues;
}
