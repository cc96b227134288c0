import type { Catalog } from "../catalog-schema.ts";
import { messages } from "../messages.ts";
import type { Entity, RuleIssue } from "./rule.ts";

/** No product code is used twice, across plans, essentials add-ons, exports and export upgrades. */
export function codesUnique({
  plans,
  essentials,
  singleExports,
  exportUpgrades,
}: Pick<Catalog, "plans" | "essentials" | "singleExports" | "exportUpgrades">): RuleIssue[] {
  const entries: { entity: Entity; index: number; code: string; what: string }[] = [
    ...plans.map((plan, index) => ({
      entity: "plans" as const,
      index,
      code: plan.code,
      what: `a plan of family ${plan.family}`,
    })),
    ...essentials.addOns.map((a, index) => ({
      entity: "addOns" as const,
      index,
      code: a.code,
      what: "an essentials add-on",
    })),
    ...singleExports.map((e, index) => ({
      entity: "singleExports" as const,
      index,
      code: e.code,
      what: "a single export",
    })),
    ...exportUpgrades.map((e, index) => ({
      entity: "exportUpgrades" as const,
      index,
      code: e.code,
      what: "an export upgrade",
    })),
  ];
  const seen = new Map<string, string>();
  const issues: RuleIssue[] = [];
  for (const { entity, index, code, what } of entries) {
    const first = seen.get(code);
    if (first === undefined) seen.set(code, what);
    else
      issues.push({
        ...messages.duplicateCode(code, first),
        at: { entity, index, field: ["code"] },
      });
  }
  return issues;
}

/**
 * Campaign, seat-structure, price-set, migration and experiment ids are unique: other entries refer
 * to them by id, and an experiment's id is recorded with every exposure and purchase.
 */
export function idsUnique({
  campaigns,
  seatStructures,
  priceSets,
  priceMigrations,
  experiments,
}: Pick<
  Catalog,
  "campaigns" | "seatStructures" | "priceSets" | "priceMigrations" | "experiments"
>): RuleIssue[] {
  const lists: [Entity, string, readonly { id: string }[]][] = [
    ["campaigns", "campaign", campaigns],
    ["seatStructures", "seat structure", seatStructures],
    ["priceSets", "price set", priceSets],
    ["priceMigrations", "price migration", priceMigrations ?? []],
    ["experiments", "experiment", experiments ?? []],
  ];
  const issues: RuleIssue[] = [];
  for (const [entity, what, items] of lists) {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (seen.has(item.id))
        issues.push({
          ...messages.duplicateId(what, item.id),
          at: { entity, index, field: ["id"] },
        });
      seen.add(item.id);
    });
  }
  return issues;
}
