// `--format html`: one self-contained page (inline CSS and SVG, no script, nothing fetched) with
// the product's design tokens (src/styles/tokens.css, passed in), the headline figures, the
// charts (MRR, active subscriptions, weekly movements, each experiment's conversion with its
// interval) and every table of tables.ts, so the page and the text report say the same thing.
import type { Report } from "../../../src/domain/report/report.ts";
import { barChart, columnChart, esc, intervalChart, movementChart } from "./charts.ts";
import {
  activeTable,
  agreement,
  campaignsTable,
  day,
  experimentTables,
  headline,
  movementsTable,
  mrrTable,
  percent,
  revenueTable,
  type Table,
  trialsTable,
  usd,
} from "./tables.ts";

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:var(--font);color:var(--ink);background:var(--soft);font-size:var(--text-md);line-height:1.45}
main{max-width:1200px;margin:0 auto;padding:var(--space-4)}
h1{font-size:var(--text-xl);margin:0 0 var(--space-2)}
h2{font-size:var(--text-lg);margin:0 0 var(--space-2)}
p{margin:0 0 var(--space-3)}
.muted,.note{color:var(--muted);font-size:var(--text-sm)}
.cards,.charts{display:grid;gap:var(--space-3);margin:var(--space-4) 0}
.cards{grid-template-columns:repeat(auto-fit,minmax(135px,1fr))}
.charts{grid-template-columns:repeat(auto-fit,minmax(min(100%,300px),1fr))}
.card,section,figure{background:var(--surface);border:1px solid var(--line);border-radius:var(--radius-lg);padding:var(--space-4);margin:0}
section{margin:var(--space-4) 0}
.card{font-size:var(--text-sm);color:var(--muted)}
.card b{display:block;font-size:clamp(var(--text-lg),2.2vw,var(--text-xl));color:var(--brand);font-variant-numeric:tabular-nums}
.source{word-break:break-all}
.legend{display:flex;flex-wrap:wrap;gap:var(--space-1) var(--space-3);font-size:var(--text-sm);color:var(--muted);margin:var(--space-2) 0 0}
.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:var(--space-1)}
.legend .m-new{background:var(--brand)}.legend .m-upgraded{background:var(--save)}.legend .m-downgraded{background:var(--warn)}.legend .m-cancelled{background:var(--sale)}.legend .m-lapsed{background:var(--field-line)}
@media (max-width:480px){main{padding:var(--space-2)}.card,section,figure{padding:var(--space-3)}}
.badge{display:inline-block;border-radius:var(--radius-pill);padding:var(--space-1) var(--space-3);font-size:var(--text-sm);font-weight:600}
.ok{background:var(--save-soft);color:var(--save)}
.bad{background:var(--sale-soft);color:var(--sale)}
.wait{background:var(--warn-soft);color:var(--warn)}
figcaption{font-weight:600;margin-bottom:var(--space-2)}
section figure{max-width:440px;margin-bottom:var(--space-3)}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:var(--text-sm)}
th,td{padding:var(--space-1) var(--space-2);border-bottom:1px solid var(--line);vertical-align:top}
th{text-align:left;color:var(--muted);font-weight:600}
td.r,th.r{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
svg.chart{display:block;width:100%;height:auto;font-family:var(--font)}
svg .tick{font-size:12px;fill:var(--muted)}
svg .label,svg .value{font-size:12px;fill:var(--ink)}
svg .grid{stroke:var(--line);stroke-width:1}
svg .axis{stroke:var(--field-line);stroke-width:1}
svg .bar{fill:var(--brand)}
svg .m-new{fill:var(--brand)}
svg .m-upgraded{fill:var(--save)}
svg .m-downgraded{fill:var(--warn)}
svg .m-cancelled{fill:var(--sale)}
svg .m-lapsed{fill:var(--field-line)}
svg .whisker{stroke:var(--ink);stroke-width:2}
svg .dot{fill:var(--ink)}
svg .whisker.better{stroke:var(--save)} svg .dot.better{fill:var(--save)}
svg .whisker.worse{stroke:var(--sale)} svg .dot.worse{fill:var(--sale)}
svg .whisker.control{stroke:var(--brand)} svg .dot.control{fill:var(--brand)}
`;

function tableHtml(table: Table): string {
  const cls = (i: number) => (table.columns[i]?.align === "right" ? ' class="r"' : "");
  const head = table.columns.map((c, i) => `<th${cls(i)}>${esc(c.label)}</th>`).join("");
  const rows =
    table.rows.length === 0
      ? `<tr><td colspan="${table.columns.length}" class="muted">none</td></tr>`
      : table.rows
          .map((r) => `<tr>${r.map((c, i) => `<td${cls(i)}>${esc(c.trim())}</td>`).join("")}</tr>`)
          .join("");
  return `<div class="scroll"><table id="${esc(table.id)}"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

function section(table: Table, extra = ""): string {
  const note = table.note ? `<p class="note">${esc(table.note)}</p>` : "";
  return `<section><h2>${esc(table.title)}</h2>${note}${extra}${tableHtml(table)}</section>`;
}

const figure = (caption: string, chart: string) =>
  `<figure><figcaption>${esc(caption)}</figcaption>${chart}</figure>`;

function experimentHtml(report: Report): string[] {
  return report.experiments.map((x) => {
    const verdictOf = new Map(x.analysis.verdicts.map((v) => [v.group, v.kind]));
    const chart = intervalChart(
      `Conversion to purchase per group in ${x.id}, with its interval`,
      x.analysis.groups.map((g) => ({
        label: g.group,
        ...g.conversion,
        tone: g.liftVsControl === null ? "control" : (verdictOf.get(g.group) ?? "no-verdict"),
      })),
    );
    const [groups, verdicts] = experimentTables(x);
    const badges = x.analysis.verdicts
      .map((v) => {
        const tone = v.kind === "better" ? "ok" : v.kind === "worse" ? "bad" : "wait";
        return `<p><span class="badge ${tone}">${esc(`${v.group}: ${v.kind}`)}</span> ${esc(v.summary)}</p>`;
      })
      .join("");
    return [
      groups ? section(groups, `${badges}${figure("Conversion per group", chart)}`) : "",
      verdicts ? section(verdicts) : "",
    ].join("");
  });
}

/** The movement chart's colours, named in text (wraps at any width, unlike SVG text). */
const legend = `<p class="legend">${["new", "upgraded", "downgraded", "cancelled", "lapsed"]
  .map((kind) => `<span><i class="m-${kind}"></i>${kind}</span>`)
  .join("")}</p>`;

export function formatHtml(report: Report, tokensCss: string): string {
  const last = report.mrr.at(-1);
  const agree = report.revenueMatchesInvoices;
  const cards = [
    ["Revenue, tax included", usd(report.revenue.revenueCents)],
    ["Net revenue", usd(report.revenue.netCents)],
    ["MRR at the end", usd(last?.mrrCents ?? 0)],
    ["Active subscriptions", String(report.active.total)],
    [
      "Trial conversion",
      percent(
        report.trials.reduce((n, t) => n + t.started, 0) === 0
          ? null
          : report.trials.reduce((n, t) => n + t.converted, 0) /
              report.trials.reduce((n, t) => n + t.started, 0),
      ),
    ],
  ]
    .map(
      ([label, value]) => `<div class="card">${esc(label ?? "")}<b>${esc(value ?? "")}</b></div>`,
    )
    .join("");
  const charts = [
    figure(
      "Monthly recurring revenue",
      columnChart(
        "Monthly recurring revenue at the end of each month",
        report.mrr.map((m) => ({ label: m.month, value: m.mrrCents })),
        (v) => usd(v).replace(/\.00$/, ""),
      ),
    ),
    figure(
      "Active subscriptions",
      barChart(
        "Active subscriptions per plan at the end of the window",
        report.active.byPlan.map((p) => ({
          label: `${p.name}${p.termMonths === 12 ? " (annual)" : p.termMonths === 1 ? " (monthly)" : ""}`,
          value: p.count,
        })),
      ),
    ),
    figure(
      "Movements per week",
      movementChart(
        "New and upgraded above the line; downgraded, cancelled and lapsed below",
        report.movements,
      ) + legend,
    ),
  ].join("");
  const body = [
    "<h1>Revenue report</h1>",
    `<p class="muted source">${esc(`${day(report.window.fromMs)} to ${day(report.window.toMs)} (to exclusive), read from ${report.source}`)}</p>`,
    `<p><span class="badge ${agree ? "ok" : "bad"}">${agree ? "Revenue equals invoices" : "Revenue differs from invoices"}</span> ${esc(agreement(report))}</p>`,
    `<div class="cards">${cards}</div>`,
    `<div class="charts">${charts}</div>`,
    section(revenueTable(report)),
    section(mrrTable(report)),
    section(activeTable(report)),
    section(movementsTable(report)),
    section(trialsTable(report)),
    section(campaignsTable(report)),
    ...experimentHtml(report),
  ].join("\n");
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(headline(report))}</title>`,
    `<style>${tokensCss}\n${STYLE}</style>`,
    "</head>",
    `<body><main>${body}</main></body>`,
    "</html>",
    "",
  ].join("\n");
}
