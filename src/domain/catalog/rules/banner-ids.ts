import type { Catalog } from "../catalog-schema.ts";
import { messages } from "../messages.ts";
import type { RuleIssue } from "./rule.ts";

/** Banner ids are unique across all campaigns (the pages and analytics key on them). */
export function bannerIdsUnique({ campaigns }: Pick<Catalog, "campaigns">): RuleIssue[] {
  const seen = new Map<string, string>();
  const issues: RuleIssue[] = [];
  campaigns.forEach((campaign, index) => {
    campaign.banners.forEach((banner, b) => {
      const first = seen.get(banner.id);
      if (first === undefined) {
        seen.set(banner.id, campaign.id);
      } else {
        issues.push({
          ...messages.bannerDuplicate(banner.id, first),
          at: { entity: "campaigns", index, field: ["banners", b, "id"] },
        });
      }
    });
  });
  return issues;
}
