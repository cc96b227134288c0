// The catalogue the server prices with: the JSON that `catalog build` emits, validated with the
// same schema the pages and the CLI use.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Catalog } from "../domain/catalog/catalog-schema.ts";
import {
  latestRelease,
  type ReleaseRecord,
  type ReleasesFile,
} from "../domain/catalog/releases.ts";

const GENERATED_CATALOG = fileURLToPath(new URL("../generated/catalog.json", import.meta.url));

export function loadCatalog(path = GENERATED_CATALOG): Catalog {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw new Error(`The catalogue ${path} does not exist. Run \`npm run catalog:build\` first.`);
  }
  const parsed = Catalog.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(
      `The catalogue ${path} does not match the schema (${first?.path.join(".")}: ${first?.message}). Run \`npm run catalog:build\` again.`,
    );
  }
  return parsed.data;
}

const RELEASES = fileURLToPath(new URL("../../catalog/releases.json", import.meta.url));

/** The last release `catalog publish` recorded, or null (none yet, or no releases file). */
export function loadLatestRelease(path = RELEASES): ReleaseRecord | null {
  try {
    return latestRelease(JSON.parse(readFileSync(path, "utf8")) as ReleasesFile);
  } catch {
    return null;
  }
}
