// An invoice, credit note or quote as an accessible HTML page: the same printable text as the PDF
// (domain/invoices/printable.ts), in headings, a definition list and tables with captions and
// header cells, so a screen reader reads each amount with its column.
import type { Block, Printable } from "../../domain/invoices/printable.ts";
import { escapeHtml } from "../http/reply.ts";

const STYLE = `
body{font-family:system-ui,sans-serif;color:#1a1a1a;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.45}
h1{font-size:1.6rem}h2{font-size:1.05rem;margin:1.2rem 0 .3rem}
.parties{display:flex;gap:2rem;flex-wrap:wrap}.parties section{flex:1 1 16rem}
.parties p{margin:0}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}
dt{font-weight:600}dd{margin:0}table{border-collapse:collapse;width:100%;margin:.5rem 0}
caption{text-align:left;font-weight:600;padding:.3rem 0}th,td{padding:.35rem .5rem;border-bottom:1px solid #ccc;text-align:left}
td.amount,th.amount{text-align:right;font-variant-numeric:tabular-nums}
.totals th{font-weight:600}.actions{margin:1.5rem 0}a{color:#0b57d0}
@media print{.actions{display:none}}`;

const e = escapeHtml;

function block(b: Block, index: number): string {
  switch (b.kind) {
    case "party": {
      const id = `party-${index}`;
      return `<section aria-labelledby="${id}"><h2 id="${id}">${e(b.heading)}</h2>${b.lines
        .map((line) => `<p>${e(line)}</p>`)
        .join("")}</section>`;
    }
    case "facts":
      return `<dl>${b.rows.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join("")}</dl>`;
    case "lines":
    case "taxes": {
      const head = b.columns
        .map((c, i) => `<th scope="col"${i > 0 ? ' class="amount"' : ""}>${e(c)}</th>`)
        .join("");
      const rows = b.rows
        .map(
          (row) =>
            `<tr>${row
              .map((cell, i) =>
                i === 0 ? `<th scope="row">${e(cell)}</th>` : `<td class="amount">${e(cell)}</td>`,
              )
              .join("")}</tr>`,
        )
        .join("");
      return `<table><caption>${e(b.heading)}</caption><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
    }
    case "totals":
      return `<table class="totals" aria-label="Totals"><tbody>${b.rows
        .map(([k, v]) => `<tr><th scope="row">${e(k)}</th><td class="amount">${e(v)}</td></tr>`)
        .join("")}</tbody></table>`;
    case "notes":
      return b.lines.map((line) => `<p>${e(line)}</p>`).join("");
  }
}

export function printableHtml(
  p: Printable,
  links: { pdf: string | null; back: string | null },
): string {
  const parties = p.blocks.filter((b) => b.kind === "party");
  const rest = p.blocks.filter((b) => b.kind !== "party");
  const actions = [
    links.pdf ? `<a href="${e(links.pdf)}" download>Download the PDF</a>` : "",
    links.back ? `<a href="${e(links.back)}">Back to your account</a>` : "",
  ].filter(Boolean);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(p.title)}</title><style>${STYLE}</style></head><body><main><h1>${e(p.title)}</h1><div class="parties">${parties
    .map((b, i) => block(b, i))
    .join("")}</div>${rest.map((b, i) => block(b, i + parties.length)).join("")}${
    actions.length ? `<p class="actions">${actions.join(" · ")}</p>` : ""
  }</main></body></html>`;
}
