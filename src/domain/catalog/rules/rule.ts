// A cross-entity rule: a small pure function over the slice of the normalised catalogue it needs,
// returning problems located by entity and index. validate.ts turns a location into the file,
// field path and line the pricing team edits.
import type { FieldPath } from "../issue.ts";
import type { Problem } from "../messages.ts";

export type Entity =
  | "plans"
  | "addOns"
  | "singleExports"
  | "exportUpgrades"
  | "seatStructures"
  | "campaigns"
  | "priceSets"
  | "priceMigrations"
  | "experiments";

/**
 * Where a problem is: the index of the entity in its catalogue list, and the field in the words
 * of the source file (`price`, `products[0].code`, `bands[2].total`). Plan fields name either a
 * variant field (`seatPrice`) or a family field (`trialProduct`); validate.ts knows which.
 */
export type Locator = { entity: Entity; index: number; field?: FieldPath };

export type RuleIssue = Problem & { at: Locator };

/** Codes of a list, for lookups and "did you mean" suggestions. */
export function indexByCode<T extends { code: string }>(items: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) if (!map.has(item.code)) map.set(item.code, item);
  return map;
}
