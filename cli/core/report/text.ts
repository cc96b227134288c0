// `--format text` and `--format markdown`: the report's tables (tables.ts), aligned for a
// terminal, or as GitHub-flavoured Markdown tables.
import type { Report } from "../../../src/domain/report/report.ts";
import { agreement, allTables, headline, type Table } from "./tables.ts";

function aligned(table: Table): string[] {
  const widths = table.columns.map((c, i) =>
    Math.max(c.label.length, ...table.rows.map((r) => (r[i] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) =>
        table.columns[i]?.align === "right"
          ? cell.padStart(widths[i] ?? 0)
          : cell.padEnd(widths[i] ?? 0),
      )
      .join("  ")
      .trimEnd();
  const body = table.rows.length === 0 ? ["(none)"] : table.rows.map(line);
  return [line(table.columns.map((c) => c.label)), line(widths.map((w) => "-".repeat(w))), ...body];
}

export function formatText(report: Report): string {
  const out = [headline(report), agreement(report)];
  for (const table of allTables(report)) {
    out.push("", table.title, ...(table.note ? [table.note] : []), "", ...aligned(table));
  }
  return out.join("\n");
}

/** Escapes what Markdown would read as markup in a table cell. */
const md = (text: string) => text.replace(/[\\`*_[\]|<>]/g, (c) => `\\${c}`);

export function formatMarkdown(report: Report): string {
  const out = [`## ${md(headline(report))}`, "", md(agreement(report))];
  for (const table of allTables(report)) {
    out.push("", `### ${md(table.title)}`, "");
    if (table.note) out.push(md(table.note), "");
    if (table.rows.length === 0) {
      out.push("(none)");
      continue;
    }
    out.push(`| ${table.columns.map((c) => md(c.label)).join(" | ")} |`);
    out.push(`|${table.columns.map((c) => (c.align === "right" ? "---:" : "---")).join("|")}|`);
    for (const row of table.rows) out.push(`| ${row.map((c) => md(c.trim())).join(" | ")} |`);
  }
  return `${out.join("\n")}\n`;
}
