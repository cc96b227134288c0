// Shared by the browser tests of the static pages: the built catalogue the pages were built from,
// and reading what a person sees.
import { readFileSync } from "node:fs";
import type { Locator } from "@playwright/test";
import type { Catalog, PlanEntry } from "../../src/domain/catalog/catalog-schema.ts";

export const catalog = JSON.parse(
  readFileSync(new URL("../../src/generated/catalog.json", import.meta.url), "utf8"),
) as Catalog;

export function planByCode(code: string): PlanEntry {
  const plan = catalog.plans.find((p) => p.code === code);
  if (!plan) throw new Error(`No plan ${code} in the catalogue`);
  return plan;
}

/** What a person sees in an element: its rendered text (hidden parts left out), spaces squashed. */
export async function visibleText(locator: Locator): Promise<string> {
  const text = await locator.innerText();
  return text.replace(/\s+/g, " ").trim();
}
