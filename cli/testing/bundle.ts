// The CLI bundle (decision 0017) for the tests that run it (scripts/build-cli.test.ts): the one
// `npm test`'s catalog stage built into cli/dist when it is still current, else one built once, in
// a temporary folder that stays current until a source changes (a run of the unit stage alone, or
// a test run after an edit), one build at a time across vitest's workers. Tests never write
// cli/dist, which `catalog` runs may be reading.
import { createHash } from "node:crypto";
import { mkdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildCli, bundleIsCurrent, CLI_DIST } from "../../scripts/build-cli.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const key = createHash("sha256").update(root).digest("hex").slice(0, 8);
/** Where a bundle built for tests lives, one per working tree. */
const TEST_BUNDLE = join(tmpdir(), `catalog-test-bundle-${key}`);
const lock = `${TEST_BUNDLE}.lock`;
/** A lock older than this was left by a run that died while building. */
const STALE_LOCK_MS = 5 * 60_000;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The folder of a bundle built from the current sources: cli/dist, or one built for tests. */
export async function currentBundle(): Promise<string> {
  for (;;) {
    if (bundleIsCurrent(CLI_DIST)) return CLI_DIST;
    if (bundleIsCurrent(TEST_BUNDLE)) return TEST_BUNDLE;
    try {
      // One builder at a time across vitest's workers: whoever makes the lock builds.
      mkdirSync(lock);
    } catch {
      const age = (() => {
        try {
          return Date.now() - statSync(lock).mtimeMs;
        } catch {
          return 0;
        }
      })();
      if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      await sleep(200);
      continue;
    }
    try {
      await buildCli(TEST_BUNDLE);
      return TEST_BUNDLE;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
