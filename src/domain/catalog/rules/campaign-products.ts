import type { Catalog } from "../catalog-schema.ts";
import { closest } from "../closest.ts";
import { messages } from "../messages.ts";
import { indexByCode, type RuleIssue } from "./rule.ts";

/** Every product a campaign discounts is a plan, and its campaign price is below the plan's price. */
export function campaignProducts({
  plans,
  campaigns,
}: Pick<Catalog, "plans" | "campaigns">): RuleIssue[] {
  const byCode = indexByCode(plans);
  const issues: RuleIssue[] = [];
  campaigns.forEach((campaign, index) => {
    campaign.products.forEach((code, p) => {
      const plan = byCode.get(code);
      if (!plan) {
        issues.push({
          ...messages.unknownPlan(code, closest(code, byCode.keys())),
          at: { entity: "campaigns", index, field: ["products", p, "code"] },
        });
        return;
      }
      const price = campaign.prices[code];
      if (price !== undefined && price >= plan.price) {
        issues.push({
          ...messages.campaignNotLower(code, price, plan.price),
          at: { entity: "campaigns", index, field: ["products", p, "price"] },
        });
      }
    });
  });
  return issues;
}
