// The unit stage's order of files: vitest runs the files it has timings for longest first, and
// files it has none for (a fresh clone, as CI's) largest first. A short file can hold a long test:
// the demo season plays 2,000 visitors through a server (about 30 s), and started last it was
// the stage's tail on a fresh clone, one worker busy and the rest idle. The files below, the
// longest measured (quiet machine, December 2026), start first; the rest keep vitest's order.
import { BaseSequencer, type TestSpecification } from "vitest/node";

const LONGEST = [
  "cli/core/report/demo-season.test.ts",
  "src/server/crash.test.ts",
  "src/server/handlers/stripe-payments.test.ts",
  "src/server/several-servers.test.ts",
  "cli/core/report/report.test.ts",
];

function rank(spec: TestSpecification): number {
  const i = LONGEST.findIndex((path) => spec.moduleId.endsWith(path));
  return i === -1 ? LONGEST.length : i;
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: within a rank, vitest's own order stays.
    return sorted.toSorted((a, b) => rank(a) - rank(b));
  }
}
