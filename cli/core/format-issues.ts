// How issues print: `file:line path: message`, one per line, the hint indented below.
import type { Issue } from "../../src/domain/catalog/issue.ts";
import type { Style } from "./output.ts";

export function formatIssue(issue: Issue, style: Style, label?: string): string {
  const where = `${issue.file}${issue.line === undefined ? "" : `:${issue.line}`}`;
  const path = issue.path === "" ? "" : ` ${style.bold(issue.path)}`;
  const head = `${label ? `${label} ` : ""}${style.dim(where)}${path}: ${issue.message}`;
  return issue.hint ? `${head}\n  ${style.dim(issue.hint)}` : head;
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Every issue, then warnings, then a count: what `validate` and `build` print on failure. */
export function formatIssues(
  issues: readonly Issue[],
  warnings: readonly Issue[],
  style: Style,
): string {
  const files = new Set(issues.map((issue) => issue.file)).size;
  return [
    ...issues.map((issue) => formatIssue(issue, style)),
    ...warnings.map((issue) => formatIssue(issue, style, style.yellow("warning"))),
    style.red(`${count(issues.length, "problem")} in ${count(files, "file")}`),
  ].join("\n");
}
