// Reads and validates a catalogue folder: what every command that needs the catalogue starts with.
import type { Catalog } from "../../src/domain/catalog/catalog-schema.ts";
import type { Issue } from "../../src/domain/catalog/issue.ts";
import { sortIssues } from "../../src/domain/catalog/issue.ts";
import { validateCatalog } from "../../src/domain/catalog/validate.ts";
import type { CatalogFs } from "./catalog-fs.ts";
import { parseCatalog } from "./read-catalog.ts";
import { displayDir, type RawFile, readTexts } from "./read-texts.ts";

export type Loaded =
  | { ok: true; catalog: Catalog; warnings: Issue[] }
  | { ok: false; issues: Issue[]; warnings: Issue[] };

/** Parses (read-catalog.ts) and validates the files read by readTexts. */
export function validateRaw(raw: readonly RawFile[], dir: string): Loaded {
  const read = parseCatalog(raw, dir);
  const result = validateCatalog(read.files, { root: displayDir(dir) });
  if (read.issues.length === 0) return result;
  const issues = sortIssues([...read.issues, ...(result.ok ? [] : result.issues)]);
  return { ok: false, issues, warnings: result.warnings };
}

export function loadCatalog(fs: CatalogFs, dir: string): Loaded {
  return validateRaw(readTexts(fs, dir), dir);
}
