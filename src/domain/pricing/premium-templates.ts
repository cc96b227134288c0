// The premium-templates line of a plan card (spec section 5), chosen by plan.premiumTemplates.
import type { PlanEntry } from "../catalog/catalog-schema.ts";

export type PremiumTemplatesLine = { text: string; note?: string };

export function premiumTemplatesLine(
  plan: Pick<PlanEntry, "premiumTemplates">,
): PremiumTemplatesLine {
  switch (plan.premiumTemplates) {
    case "business-education":
      return { text: "Includes Personal, Business and Education templates" };
    case "personal":
      return { text: "All personal templates", note: "Excludes Business & Education templates" };
    case "all":
      return { text: "All premium templates" };
  }
}
