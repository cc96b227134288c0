// The report as titled tables of text cells: what every format prints (text aligns them,
// markdown pipes them, html marks them up beside its charts), so the formats never disagree on
// a figure or its wording.

import type { Interval } from "../../../src/domain/experiments/verdict.ts";
import { formatUsd } from "../../../src/domain/pricing/money.ts";
import type { ExperimentResult } from "../../../src/domain/report/experiments.ts";
import type { Report } from "../../../src/domain/report/report.ts";

export type Align = "left" | "right";
export type Table = {
  id: string;
  title: string;
  /** A sentence under the title: what the figures mean. */
  note?: string;
  columns: { label: string; align: Align }[];
  rows: string[][];
};

export const usd = (cents: number) => (cents < 0 ? `-${formatUsd(-cents)}` : formatUsd(cents));
export const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const percent = (x: number | null, digits = 1) =>
  x === null ? "–" : `${(x * 100).toFixed(digits)}%`;
const count = (n: number) => n.toLocaleString("en-US");
const term = (months: number) =>
  months === 12 ? "annual" : months === 1 ? "monthly" : months === 0 ? "once" : `${months} months`;
const L = (label: string) => ({ label, align: "left" as const });
const R = (label: string) => ({ label, align: "right" as const });

/** "12.3% (10.1% to 14.6%)" */
const rateInterval = (i: Interval) =>
  `${percent(i.estimate)} (${percent(i.low)} to ${percent(i.high)})`;
const centsInterval = (i: Interval) =>
  `${usd(Math.round(i.estimate))} (${usd(Math.round(i.low))} to ${usd(Math.round(i.high))})`;
/** A lift in percentage points: "+2.1 pts (-0.4 to +4.6)". */
const lift = (i: Interval | null) => {
  if (i === null) return "control";
  const pts = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}`;
  return `${pts(i.estimate)} pts (${pts(i.low)} to ${pts(i.high)})`;
};

export function headline(report: Report): string {
  return `Revenue report, ${report.window.from} to ${report.window.to} (read from ${report.source})`;
}

/** The one line that says whether revenue equals the invoices. */
export function agreement(report: Report): string {
  const { revenue, invoices } = report;
  return report.revenueMatchesInvoices
    ? `Revenue ${usd(revenue.revenueCents)} equals the invoices and credit notes of the window (${usd(invoices.totalCents)}) to the cent.`
    : `Revenue ${usd(revenue.revenueCents)} does NOT equal the invoices and credit notes of the window (${usd(invoices.totalCents)}): ${usd(revenue.revenueCents - invoices.totalCents)} apart.`;
}

export function revenueTable(report: Report): Table {
  const { revenue: r, invoices: i, exports: e } = report;
  return {
    id: "revenue",
    title: "Revenue",
    note: "Orders charged in the window less refunds and lost disputes recorded in it; net is without tax.",
    columns: [L("what"), R("count"), R("amount")],
    rows: [
      ["Charged (paid orders)", count(r.orders), usd(r.chargedCents)],
      ["Refunded or lost to disputes", count(r.refunds), usd(-r.refundedCents)],
      ["Revenue, tax included", "", usd(r.revenueCents)],
      ["Tax", "", usd(r.taxCents)],
      ["Net revenue", "", usd(r.netCents)],
      ["  of which new purchases", "", usd(r.netByKind.purchases)],
      ["  of which renewals", "", usd(r.netByKind.renewals)],
      ["  of which one-off exports", count(e.count), usd(r.netByKind.exports)],
      ["Invoices issued", count(i.invoices), usd(i.invoicedCents)],
      ["Credit notes issued", count(i.creditNotes), usd(i.creditedCents)],
      ["Invoices and credit notes", count(i.invoices + i.creditNotes), usd(i.totalCents)],
      ["Revenue equals invoices", "", report.revenueMatchesInvoices ? "yes" : "NO"],
    ],
  };
}

export function mrrTable(report: Report): Table {
  return {
    id: "mrr",
    title: "Monthly recurring revenue",
    note: "At the end of each month: each paid plan in use, its period's value over its months (an annual plan counts a twelfth), without tax.",
    columns: [L("month"), R("MRR"), R("paid plans")],
    rows: report.mrr.map((m) => [m.month, usd(m.mrrCents), count(m.subscriptions)]),
  };
}

export function activeTable(report: Report): Table {
  const { active } = report;
  return {
    id: "active",
    title: `Active subscriptions at ${day(report.window.toMs)}`,
    note: "Paid plans in use at the end of the window, cancelled ones included until their period ends.",
    columns: [L("plan"), L("name"), L("term"), R("subscriptions")],
    rows: [
      ...active.byPlan.map((p) => [p.productCode, p.name, term(p.termMonths), count(p.count)]),
      ["total", "", "", count(active.total)],
    ],
  };
}

export function movementsTable(report: Report): Table {
  return {
    id: "movements",
    title: "Movements per week",
    note: "Weeks start on Monday (UTC). Lapsed: ended without being cancelled (renewal not paid within 7 days, or refunded).",
    columns: [L("week of"), R("new"), R("upgraded"), R("downgraded"), R("cancelled"), R("lapsed")],
    rows: report.movements.map((m) => [
      m.week,
      count(m.new),
      count(m.upgraded),
      count(m.downgraded),
      count(m.cancelled),
      count(m.lapsed),
    ]),
  };
}

export function trialsTable(report: Report): Table {
  return {
    id: "trials",
    title: "Trials",
    note: "Trials started in the window; converted: a paid plan bought after the trial began.",
    columns: [L("trial"), L("name"), R("started"), R("converted"), R("running"), R("conversion")],
    rows: report.trials.map((t) => [
      t.kind,
      t.name,
      count(t.started),
      count(t.converted),
      count(t.running),
      percent(t.conversion),
    ]),
  };
}

export function campaignsTable(report: Report): Table {
  return {
    id: "campaigns",
    title: "Campaigns and coupons",
    note: "Purchases each campaign priced; discount: the list price less the price paid. At the first full-price renewal: renewed, cancelled, lapsed, or not yet.",
    columns: [
      L("campaign"),
      L("coupon"),
      R("redemptions"),
      R("net revenue"),
      R("discount given"),
      R("renewed"),
      R("cancelled"),
      R("lapsed"),
      R("not yet"),
    ],
    rows: report.campaigns.map((c) => [
      c.recurring ? `${c.id} (recurring)` : c.id,
      c.coupon,
      count(c.redemptions),
      usd(c.netCents),
      usd(c.discountCents),
      count(c.outcomes.renewed),
      count(c.outcomes.cancelled),
      count(c.outcomes.lapsed),
      count(c.outcomes.notYet),
    ]),
  };
}

export function experimentTables(x: ExperimentResult): Table[] {
  const { analysis } = x;
  return [
    {
      id: `experiment-${x.id}`,
      title: `Experiment ${x.id}`,
      note: [x.description, `Rule: ${analysis.rule} (alpha ${analysis.alpha}).`]
        .filter(Boolean)
        .join(" "),
      columns: [
        L("group"),
        R("exposed"),
        R("purchased"),
        R("conversion"),
        R("revenue per exposed visitor"),
        R("lift vs control"),
      ],
      rows: analysis.groups.map((g) => [
        g.group,
        count(g.exposed),
        count(g.purchased),
        rateInterval(g.conversion),
        centsInterval(g.revenuePerVisitorCents),
        lift(g.liftVsControl),
      ]),
    },
    {
      id: `verdict-${x.id}`,
      title: `Verdict of ${x.id}`,
      columns: [L("group"), L("verdict"), R("exposed visitors still needed per group"), L("why")],
      rows: analysis.verdicts.map((v) => [
        v.group,
        v.kind,
        v.stillNeeded === null ? "–" : count(v.stillNeeded),
        v.summary,
      ]),
    },
  ];
}

export function allTables(report: Report): Table[] {
  return [
    revenueTable(report),
    mrrTable(report),
    activeTable(report),
    movementsTable(report),
    trialsTable(report),
    campaignsTable(report),
    ...report.experiments.flatMap(experimentTables),
  ];
}
