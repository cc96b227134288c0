// Trial starts in the window and how many became paid, per trial kind (the trial's product,
// decision 0091): converted when the account bought a paid plan after the trial began, by the
// window's end; running when neither converted nor over at the window's end.
import type { Catalog } from "../catalog/catalog-schema.ts";
import type { OrderRow } from "./rows.ts";
import type { Window } from "./window.ts";

export type TrialKind = {
  kind: string;
  name: string;
  started: number;
  converted: number;
  running: number;
  /** converted / started, or null without starts. */
  conversion: number | null;
};

export function trialsOf(
  orders: readonly OrderRow[],
  catalog: Pick<Catalog, "plans">,
  w: Window,
): TrialKind[] {
  const purchases = new Map<number, number[]>();
  for (const o of orders) {
    if (o.kind !== "plan" || o.renewal || o.total <= 0 || o.createdAt >= w.to) continue;
    purchases.set(o.userId, [...(purchases.get(o.userId) ?? []), o.createdAt]);
  }
  const kinds = new Map<string, TrialKind>();
  for (const trial of orders) {
    if (trial.kind !== "trial" || trial.createdAt < w.from || trial.createdAt >= w.to) continue;
    const row = kinds.get(trial.productCode) ?? {
      kind: trial.productCode,
      name: catalog.plans.find((p) => p.code === trial.productCode)?.name ?? trial.productCode,
      started: 0,
      converted: 0,
      running: 0,
      conversion: null,
    };
    row.started += 1;
    if ((purchases.get(trial.userId) ?? []).some((at) => at >= trial.createdAt)) row.converted += 1;
    else if (trial.periodEnd === null || trial.periodEnd > w.to) row.running += 1;
    kinds.set(trial.productCode, row);
  }
  return [...kinds.values()]
    .map((k) => ({ ...k, conversion: k.started > 0 ? k.converted / k.started : null }))
    .sort((a, b) => a.kind.localeCompare(b.kind));
}
