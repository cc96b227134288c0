// Reads the text of a catalogue folder's files, without parsing them (read-catalog.ts parses).
import { isIgnored, kindOf } from "../../src/domain/catalog/source-file.ts";
import type { CatalogFs } from "./catalog-fs.ts";

/** A file of the catalogue folder: its path under the folder and its text (null: not a data file). */
export type RawFile = { relativePath: string; text: string | null };

/** `./catalog/` → `catalog`: how file names are shown. */
export function displayDir(dir: string): string {
  const trimmed = dir.replace(/\/+$/, "").replace(/^\.\/(?=.)/, "");
  return trimmed === "" ? "." : trimmed;
}

/** Reads the text of every data file below `dir` (documentation and schemas are skipped). */
export function readTexts(fs: CatalogFs, dir: string): RawFile[] {
  const base = dir.replace(/\/+$/, "");
  return fs
    .list(dir)
    .filter((relativePath) => !isIgnored(relativePath))
    .map((relativePath) => ({
      relativePath,
      text: kindOf(relativePath) ? fs.read(`${base}/${relativePath}`) : null,
    }));
}
