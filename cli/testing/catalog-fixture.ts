// Catalogue fixtures as YAML text, from the domain builders (src/domain/catalog/testing): for
// tests that read files (in memory or in a temporary folder) with real line numbers.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { stringify } from "yaml";
import {
  type CatalogInput,
  filesOf,
  makeCatalogInput,
} from "../../src/domain/catalog/testing/builders.ts";

/** Path under `root` → YAML text, for makeCatalogInput(overrides) plus any extra or replaced files. */
export function catalogTexts(
  overrides: Partial<CatalogInput> = {},
  extra: Record<string, string | null> = {},
  root = "catalog",
): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [path, data] of Object.entries(filesOf(makeCatalogInput(overrides)))) {
    texts[`${root}/${path}`] = stringify(data);
  }
  for (const [path, text] of Object.entries(extra)) {
    if (text === null) delete texts[`${root}/${path}`];
    else texts[`${root}/${path}`] = text;
  }
  return texts;
}

/** Writes files (paths relative to `dir`) into a new temporary folder; returns the folder. */
export function writeTempFolder(files: Record<string, string>, prefix = "catalog-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
