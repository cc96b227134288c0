import type { Catalog } from "../catalog-schema.ts";
import { closest } from "../closest.ts";
import { messages } from "../messages.ts";
import type { RuleIssue } from "./rule.ts";

/**
 * A price migration names plans that exist and renew, a seat structure (when it names one) that
 * exists and prices one of them, and a move that comes after the cohort it moves signed up.
 */
export function priceMigrationReferences({
  plans,
  seatStructures,
  priceMigrations,
}: Pick<Catalog, "plans" | "seatStructures" | "priceMigrations">): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const codes = plans.map((plan) => plan.code);
  const ids = seatStructures.map((s) => s.id);
  (priceMigrations ?? []).forEach((migration, index) => {
    const at = (field: (string | number)[]) => ({
      entity: "priceMigrations" as const,
      index,
      field,
    });
    migration.products.forEach((code, k) => {
      const plan = plans.find((p) => p.code === code);
      if (plan === undefined) {
        issues.push({
          ...messages.unknownPlan(code, closest(code, codes)),
          at: at(["products", k]),
        });
      } else if (!plan.recurring) {
        issues.push({ ...messages.migrationProductNotRecurring(code), at: at(["products", k]) });
      }
    });
    const structureId = migration.seatStructure;
    if (structureId !== null) {
      const structure = seatStructures.find((s) => s.id === structureId);
      if (structure === undefined) {
        issues.push({
          ...messages.unknownStructure(structureId, ids, closest(structureId, ids)),
          at: at(["seatStructure"]),
        });
      } else if (!migration.products.some((code) => structure.appliesTo.includes(code))) {
        issues.push({
          ...messages.migrationStructureNotForProducts(structureId, migration.products),
          at: at(["seatStructure"]),
        });
      }
    }
    if (migration.signedUpBefore !== null && migration.renewalsFrom < migration.signedUpBefore) {
      issues.push({
        ...messages.migrationBeforeSignUp(migration.renewalsFrom, migration.signedUpBefore),
        at: at(["renewalsFrom"]),
      });
    }
  });
  return issues;
}
