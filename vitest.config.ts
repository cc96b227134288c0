import { globSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { timeLimitScale } from "./scripts/time-limit-scale.ts";
import { LongestFirst } from "./test/longest-first.ts";

// Unit and component tests sit beside the code. Browser tests live in e2e/ and run in Playwright.
// Tests run in Node by default; a component test opts in to a DOM with a first-line comment
// `// @vitest-environment jsdom`.
const include = ["src/**/*.test.{ts,tsx}", "cli/**/*.test.ts", "scripts/**/*.test.ts"];
const exclude = ["e2e/**", "node_modules/**", "dist/**"];
const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * The test files that ask for a DOM. They keep vitest's isolation: without it a worker keeps one
 * jsdom for every file it runs, so a file would start with the nodes, scripts and globals the
 * file before it left.
 */
const domTests = globSync(include, {
  cwd: root,
  exclude: (path) => path.includes("node_modules"),
}).filter((file) =>
  /^\/\/ @vitest-environment jsdom\b/.test(readFileSync(`${root}${file}`, "utf8")),
);

// Each test's 10 s and each hook's 20 s times the machine's oversubscription when the run starts,
// as in the browser tests (scripts/time-limit-scale.ts, decision 0030); UNIT_TIMEOUT_SCALE sets it.
// Hang guards, not measures: vitest's 5 s was too close on a machine half as fast as the one the
// suite was tuned on (tests of 6.5 s in the whole stage at scale 1.3), so twice that.
const timeoutScale = timeLimitScale("UNIT_TIMEOUT_SCALE");

export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 10_000 * timeoutScale,
    hookTimeout: 20_000 * timeoutScale,
    // expect.poll's own guard (1 s by default) ran out under load before the condition it waited
    // for came (a renewal worker's charge at load 28): 5 s times the same factor. A poll ends
    // when its condition holds, so only a failing test waits the whole time.
    expect: { poll: { timeout: 5_000 * timeoutScale } },
    setupFiles: ["./test/setup/fail-on-console-error.ts"],
    restoreMocks: true,
    // Four test files at once on two cores: many tests wait on servers, databases and child
    // processes rather than compute. Quiet machine, same commit: 49.5 s with four (186 % CPU),
    // 58.3 s with two (160 %); vitest's default is the cores less one (decision 0025).
    maxWorkers: 4,
    // The longest files first, also on a fresh clone without vitest's timings (test/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          include,
          exclude: [...exclude, ...domTests],
          // No new module graph per file (isolation off): each worker loads zod, the domain and
          // the server once, not once per file; about half the stage's time (decision 0025).
          // Module state is shared by the files a worker runs, so a file that changes any
          // (setTestDatabase, a store, fake timers) puts it back when it ends.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "dom",
          include: domTests,
          exclude,
          isolate: true,
          setupFiles: ["./test/setup/dom-wait-limits.ts"],
        },
      },
    ],
  },
});
