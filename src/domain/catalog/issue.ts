// What validation reports. An issue names the file, the line when known, the field path inside
// the file (dotted, as the pricing team reads it: `variants[1].price`), what was found and what
// was expected. Messages come from messages.ts, the catalogue of every wording.

/** A path into a parsed file, as zod and the YAML document use it. */
export type FieldPath = readonly (string | number)[];

export type Issue = {
  /** Permanent identifier of the kind of problem (see messages.ts); stable for scripts. */
  code: string;
  /** The file as the user would open it, for example `catalog/plans/power.yaml`. */
  file: string;
  line?: number;
  /** Dotted field path inside the file; empty for the file as a whole. */
  path: string;
  message: string;
  hint?: string;
};

/** `["variants", 1, "price"]` → `variants[1].price`. */
export function formatPath(path: FieldPath): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? part : `.${part}`;
  }
  return out;
}

/** Orders issues by file, then line, keeping the order of discovery within a line. */
export function sortIssues(issues: readonly Issue[]): Issue[] {
  return issues
    .map((issue, index) => ({ issue, index }))
    .sort(
      (a, b) =>
        a.issue.file.localeCompare(b.issue.file) ||
        (a.issue.line ?? 0) - (b.issue.line ?? 0) ||
        a.index - b.index,
    )
    .map(({ issue }) => issue);
}
