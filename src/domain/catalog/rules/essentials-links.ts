import type { Catalog, PlanEntry } from "../catalog-schema.ts";
import { closest } from "../closest.ts";
import { messages } from "../messages.ts";
import { indexByCode, type RuleIssue } from "./rule.ts";

type Link = "essentialsUpgrade" | "essentialsDowngrade";
const BACK: Record<Link, Link> = {
  essentialsUpgrade: "essentialsDowngrade",
  essentialsDowngrade: "essentialsUpgrade",
};

/**
 * A plan with essentials names its add-on (defined, same term); a plan without essentials names
 * none. essentialsUpgrade and essentialsDowngrade name existing plans of the other kind, and the
 * two plans link to each other.
 */
export function essentialsLinks({
  plans,
  essentials,
}: Pick<Catalog, "plans" | "essentials">): RuleIssue[] {
  const byCode = indexByCode(plans);
  const addOns = indexByCode(essentials.addOns);
  const addOnCodes = [...addOns.keys()];
  const issues: RuleIssue[] = [];
  plans.forEach((plan, index) => {
    const at = (field: string) => ({ entity: "plans" as const, index, field: [field] });
    if (plan.essentials && plan.essentialsAddOn === null) {
      issues.push({ ...messages.essentialsAddOnMissing(), at: at("essentials") });
    }
    if (!plan.essentials && plan.essentialsAddOn !== null) {
      issues.push({
        ...messages.essentialsAddOnUnexpected(plan.essentialsAddOn),
        at: at("essentialsAddOn"),
      });
    }
    if (plan.essentialsAddOn !== null) {
      const addOn = addOns.get(plan.essentialsAddOn);
      if (!addOn) {
        const suggestion = closest(plan.essentialsAddOn, addOnCodes);
        issues.push({
          ...messages.essentialsAddOnUnknown(plan.essentialsAddOn, addOnCodes, suggestion),
          at: at("essentialsAddOn"),
        });
      } else if (addOn.termDuration !== plan.termDuration) {
        issues.push({
          ...messages.essentialsAddOnTerm(addOn.code, addOn.termDuration, plan.termDuration),
          at: at("essentialsAddOn"),
        });
      }
    }
    for (const link of ["essentialsUpgrade", "essentialsDowngrade"] as const) {
      const targetCode = plan[link];
      if (targetCode === null) continue;
      const target: PlanEntry | undefined = byCode.get(targetCode);
      if (!target) {
        issues.push({
          ...messages.essentialsLinkUnknown(link, targetCode, closest(targetCode, byCode.keys())),
          at: at(link),
        });
        continue;
      }
      const wantsEssentials = link === "essentialsUpgrade";
      if (target.essentials !== wantsEssentials) {
        issues.push({
          ...messages.essentialsLinkFlag(link, targetCode, wantsEssentials),
          at: at(link),
        });
      } else if (target[BACK[link]] !== plan.code) {
        issues.push({
          ...messages.essentialsLinkOneWay(
            link,
            targetCode,
            BACK[link],
            target[BACK[link]],
            plan.code,
          ),
          at: at(link),
        });
      }
    }
  });
  return issues;
}

/** Warning: an essentials add-on that no plan includes cannot be bought. */
export function essentialsAddOnsUsed({
  plans,
  essentials,
}: Pick<Catalog, "plans" | "essentials">): RuleIssue[] {
  const used = new Set(plans.map((plan) => plan.essentialsAddOn));
  return essentials.addOns.flatMap((addOn, index) =>
    used.has(addOn.code)
      ? []
      : [
          {
            ...messages.essentialsAddOnUnused(addOn.code),
            at: { entity: "addOns" as const, index, field: ["code"] },
          },
        ],
  );
}
