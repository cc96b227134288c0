// A visitor id in the control group of every price experiment of the built catalogue: the browser
// tests' visitors carry it (playwright.config.ts), so that they see the default prices whether or
// not the day they run falls inside an experiment's window. Searched, not chosen: the groups come
// from the one assignment (src/domain/experiments/assignment.ts).
import { readFileSync } from "node:fs";
import type { Catalog } from "../src/domain/catalog/catalog-schema.ts";
import { CONTROL } from "../src/domain/catalog/control.ts";
import { groupFor } from "../src/domain/experiments/assignment.ts";

export function controlVisitorId(
  catalog: Pick<Catalog, "experiments"> = JSON.parse(
    readFileSync(new URL("../src/generated/catalog.json", import.meta.url), "utf8"),
  ),
): string {
  const experiments = catalog.experiments ?? [];
  for (let i = 0; i < 100_000; i++) {
    const id = `0c0e7701-0000-4000-8000-${String(i).padStart(12, "0")}`;
    if (experiments.every((x) => groupFor(x, id) === CONTROL)) return id;
  }
  throw new Error("no visitor id is in the control group of every experiment");
}
