import type { Catalog } from "../catalog-schema.ts";
import { messages } from "../messages.ts";
import type { RuleIssue } from "./rule.ts";

/** Two campaigns may share a coupon only when their windows do not overlap. */
export function couponsDoNotOverlap({ campaigns }: Pick<Catalog, "campaigns">): RuleIssue[] {
  const issues: RuleIssue[] = [];
  campaigns.forEach((campaign, index) => {
    for (const earlier of campaigns.slice(0, index)) {
      if (earlier.coupon !== campaign.coupon) continue;
      const from = Math.max(earlier.validFrom, campaign.validFrom);
      const to = Math.min(earlier.validTo, campaign.validTo);
      if (from < to) {
        issues.push({
          ...messages.couponOverlap(campaign.coupon, earlier.id, from, to),
          at: { entity: "campaigns", index, field: ["coupon"] },
        });
      }
    }
  });
  return issues;
}
