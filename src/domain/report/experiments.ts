// Each experiment's groups from its events (experiment_events, migration 30; decision 0091):
// the visitors exposed in the window, those of them who bought (a purchase event by the window's
// end), and their revenue: the net (tax excluded) amounts of the orders their purchase and
// first-renewal events name, less refunds recorded by the window's end. The verdict is the
// stats rule's (src/domain/experiments/verdict.ts, decision 0088).
import type { Catalog } from "../catalog/catalog-schema.ts";
import { CONTROL } from "../catalog/catalog-schema.ts";
import {
  analyseExperiment,
  type ExperimentAnalysis,
  type GroupTally,
} from "../experiments/verdict.ts";
import type { Ledger } from "./ledger.ts";
import type { ExperimentEventRow } from "./rows.ts";
import type { Window } from "./window.ts";

export type ExperimentResult = {
  id: string;
  description: string;
  /** The catalogue's window for it, or null when the catalogue no longer names it. */
  from: number | null;
  to: number | null;
  tallies: GroupTally[];
  analysis: ExperimentAnalysis;
};

/** What an order brought by `asOf`, tax excluded: its subtotal less refunds' net part. */
function netOf(ledger: Ledger, orderId: string, asOf: number): number {
  const order = ledger.orders.get(orderId);
  if (!order) return 0;
  let refundedNet = 0;
  for (const r of ledger.refunds.get(orderId) ?? [])
    if (r.createdAt < asOf) refundedNet += r.credited - r.creditedTax;
  return order.subTotal - refundedNet;
}

/** The tallies of one experiment's events: per group, control first, then by name. */
function talliesOf(ledger: Ledger, events: readonly ExperimentEventRow[], w: Window): GroupTally[] {
  const groupOf = new Map<string, string>();
  for (const e of events)
    if (e.kind === "exposure" && e.at >= w.from && e.at < w.to) groupOf.set(e.visitorId, e.groupId);
  const bought = new Set<string>();
  const revenue = new Map<string, number>();
  for (const e of events) {
    if (!groupOf.has(e.visitorId) || e.at >= w.to) continue;
    if (e.kind === "purchase") bought.add(e.visitorId);
    if ((e.kind === "purchase" || e.kind === "renewal") && e.orderId !== null)
      revenue.set(e.visitorId, (revenue.get(e.visitorId) ?? 0) + netOf(ledger, e.orderId, w.to));
  }
  const tallies = new Map<string, GroupTally>();
  for (const [visitor, group] of groupOf) {
    const t = tallies.get(group) ?? {
      group,
      exposed: 0,
      purchased: 0,
      revenueCents: 0,
      revenueSquares: 0,
    };
    const cents = revenue.get(visitor) ?? 0;
    t.exposed += 1;
    if (bought.has(visitor)) t.purchased += 1;
    t.revenueCents += cents;
    t.revenueSquares += cents * cents;
    tallies.set(group, t);
  }
  return [...tallies.values()].sort((a, b) =>
    a.group === CONTROL ? -1 : b.group === CONTROL ? 1 : a.group.localeCompare(b.group),
  );
}

/** Every experiment with an exposure in the window, with its tallies and the stats' verdict. */
export function experimentsOf(
  ledger: Ledger,
  catalog: Pick<Catalog, "experiments">,
  events: readonly ExperimentEventRow[],
  w: Window,
): ExperimentResult[] {
  const byId = new Map<string, ExperimentEventRow[]>();
  for (const e of events) byId.set(e.experimentId, [...(byId.get(e.experimentId) ?? []), e]);
  const results: ExperimentResult[] = [];
  for (const [id, list] of [...byId].sort(([a], [b]) => a.localeCompare(b))) {
    const tallies = talliesOf(ledger, list, w);
    if (tallies.length === 0) continue;
    const known = catalog.experiments?.find((x) => x.id === id);
    results.push({
      id,
      description: known?.description ?? "",
      from: known?.from ?? null,
      to: known?.to ?? null,
      tallies,
      analysis: analyseExperiment(tallies, { control: CONTROL }),
    });
  }
  return results;
}
