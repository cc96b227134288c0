// Release records: what `catalog publish` writes to catalog/releases.json, newest last, and what
// the pages and the server read to say which release they are on (decision 0018). Pure data.
import type { CatalogDiff } from "./diff.ts";

export type ReleaseRecord = {
  /** The catalogue version (src/domain/catalog/version.ts). */
  version: string;
  /** When it was published, an ISO date-time. */
  publishedAt: string;
  /** The git commit the release was published from (the diff of the next release starts here). */
  commit: string;
  /** The version it follows, or null for the first release. */
  previous: string | null;
  /** What changed for customers since the previous release (`catalog diff`). */
  changes: CatalogDiff | null;
};

export type ReleasesFile = { releases: ReleaseRecord[] };

export const RELEASES_FILE = "releases.json";

/** The last release of a releases file, or null (no file, or no release yet). */
export function latestRelease(file: ReleasesFile | undefined): ReleaseRecord | null {
  return file?.releases.at(-1) ?? null;
}
