import type { Catalog } from "../catalog-schema.ts";
import { messages } from "../messages.ts";
import type { RuleIssue } from "./rule.ts";

/** A campaign's window starts before it ends (validFrom inclusive, validTo exclusive). */
export function campaignWindows({ campaigns }: Pick<Catalog, "campaigns">): RuleIssue[] {
  const issues: RuleIssue[] = [];
  campaigns.forEach((campaign, index) => {
    if (campaign.validFrom >= campaign.validTo) {
      issues.push({
        ...messages.campaignWindowEmpty(campaign.validFrom, campaign.validTo),
        at: { entity: "campaigns", index, field: ["validTo"] },
      });
    }
  });
  return issues;
}
