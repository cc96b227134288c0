// The files `validateCatalog` reads: already parsed from YAML (cli/core/read-catalog.ts does the
// I/O), each with the kind that picks its schema and a way to find the line of a field.
import type { FieldPath, Issue } from "./issue.ts";
import type { FileKind } from "./source-schema.ts";

export type SourceFile = {
  /** The file as the user would open it, for example `catalog/plans/power.yaml`. */
  path: string;
  kind: FileKind;
  /** The parsed YAML; undefined when the file could not be parsed (see `problems`). */
  data: unknown;
  /** Line (1-based) of the field at `path`, or of its nearest ancestor present in the file. */
  lineOf: (path: FieldPath) => number | undefined;
  /** Problems found while reading (YAML syntax): the file is then not validated further. */
  problems?: Issue[];
};

const KINDS = [
  "plans/*.yaml",
  "essentials.yaml",
  "exports.yaml",
  "seat-bands.yaml",
  "campaigns.yaml",
  "price-tests.yaml",
  "tax-rates.yaml",
  "marketing.yaml",
  "accounts.yaml",
  "price-migrations.yaml",
] as const satisfies readonly FileKind[];

/** Every file kind, in the order the catalogue lists them. */
export const FILE_KIND_LIST: readonly FileKind[] = KINDS;

/**
 * Files a catalogue may leave out: price migrations came later, and a catalogue without any (an
 * older git revision that `catalog diff` reads, for one) simply has none.
 */
const OPTIONAL_KINDS: readonly FileKind[] = ["price-migrations.yaml"];

/** Files that must exist: every other single-file kind, and at least one plan family. */
export const REQUIRED_KINDS: readonly FileKind[] = KINDS.filter(
  (kind) => !OPTIONAL_KINDS.includes(kind),
);

/** Paths under catalog/ that are not data: documentation and the generated JSON Schemas. */
export function isIgnored(relativePath: string): boolean {
  // releases.json: the release records `catalog publish` writes (releases.ts), not catalogue data.
  return (
    relativePath === "README.md" ||
    relativePath === "releases.json" ||
    relativePath.startsWith("schema/")
  );
}

/** The kind of a file from its path under catalog/ (`plans/power.yaml` → `plans/*.yaml`). */
export function kindOf(relativePath: string): FileKind | undefined {
  const plan = /^plans\/[^/]+\.yaml$/.test(relativePath);
  if (plan) return "plans/*.yaml";
  return KINDS.find((kind) => kind === relativePath);
}

/** Name of the JSON Schema emitted for a kind: `plans/*.yaml` → `plan-family.schema.json`. */
export function schemaFileName(kind: FileKind): string {
  const base = kind === "plans/*.yaml" ? "plan-family" : kind.replace(/\.yaml$/, "");
  return `${base}.schema.json`;
}
