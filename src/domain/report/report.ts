// The whole report from the database's rows and the catalogue (decision 0091 defines each
// figure). Pure: the rows, the catalogue and the window come in; the same inputs always give the
// same report, whose keys are stable (`--format json` prints it as it is).
import type { Catalog } from "../catalog/catalog-schema.ts";
import { type CampaignResult, campaignsOf } from "./campaigns.ts";
import { type ExperimentResult, experimentsOf } from "./experiments.ts";
import { ledgerOf } from "./ledger.ts";
import { movementsOf, type WeekMovements } from "./movements.ts";
import {
  type Exports,
  exportsOf,
  type InvoiceTotals,
  invoiceTotalsOf,
  type Revenue,
  revenueOf,
} from "./revenue.ts";
import type { ReportRows } from "./rows.ts";
import { type Active, activeAt, type MrrPoint, mrrOf } from "./subscriptions.ts";
import { type TrialKind, trialsOf } from "./trials.ts";
import type { Window } from "./window.ts";

export type Report = {
  window: { from: string; to: string; fromMs: number; toMs: number };
  /** Where the rows were read (a file or DATABASE_URL, without its password). */
  source: string;
  revenue: Revenue;
  invoices: InvoiceTotals;
  /** Whether revenue equals the sum of the window's invoices and credit notes, to the cent. */
  revenueMatchesInvoices: boolean;
  mrr: MrrPoint[];
  active: Active;
  movements: WeekMovements[];
  trials: TrialKind[];
  exports: Exports;
  campaigns: CampaignResult[];
  experiments: ExperimentResult[];
};

export type ReportCatalog = Pick<Catalog, "plans" | "seatStructures" | "campaigns" | "experiments">;

export function buildReport(
  rows: ReportRows,
  catalog: ReportCatalog,
  w: Window,
  source: string,
): Report {
  const ledger = ledgerOf(rows);
  const revenue = revenueOf(ledger, w);
  const invoices = invoiceTotalsOf(rows.invoices, w);
  return {
    window: {
      from: new Date(w.from).toISOString(),
      to: new Date(w.to).toISOString(),
      fromMs: w.from,
      toMs: w.to,
    },
    source,
    revenue,
    invoices,
    revenueMatchesInvoices: revenue.revenueCents === invoices.totalCents,
    mrr: mrrOf(ledger, w),
    active: activeAt(ledger, catalog, w),
    movements: movementsOf(ledger, catalog, rows.cancellations, w),
    trials: trialsOf(rows.orders, catalog, w),
    exports: exportsOf(ledger, w),
    campaigns: campaignsOf(ledger, catalog, rows.cancellations, w),
    experiments: experimentsOf(ledger, catalog, rows.experimentEvents, w),
  };
}
