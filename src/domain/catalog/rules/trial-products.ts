import type { Catalog } from "../catalog-schema.ts";
import { closest } from "../closest.ts";
import { messages } from "../messages.ts";
import { indexByCode, type RuleIssue } from "./rule.ts";

/** A family's trialProduct is a plan, and that plan is a trial. */
export function trialProducts({ plans }: Pick<Catalog, "plans">): RuleIssue[] {
  const byCode = indexByCode(plans);
  const issues: RuleIssue[] = [];
  plans.forEach((plan, index) => {
    if (plan.trialProduct === null) return;
    const at = { entity: "plans" as const, index, field: ["trialProduct"] };
    const trial = byCode.get(plan.trialProduct);
    if (!trial)
      issues.push({
        ...messages.unknownTrial(plan.trialProduct, closest(plan.trialProduct, byCode.keys())),
        at,
      });
    else if (!trial.isTrial) issues.push({ ...messages.trialNotTrial(plan.trialProduct), at });
  });
  return issues;
}
