// The one axe-core check of the browser tests (every spec that asks "no axe violations" calls
// this). It runs the same rules on the same pages as `new AxeBuilder({ page }).analyze()` did, at
// about a third of the cost (decision 0030); the axe checks were the largest part of the browser
// stage. What differs:
// - axe's minified build (650 kB) is injected instead of its readable one (1.5 MB), and once per
//   document: AxeBuilder injected it twice per check, and a third time into a new blank page in
//   which it merged the frames' results;
// - only violations are collected (`resultTypes`): axe still runs every rule on every node, but
//   does not gather the nodes of passes and "incomplete" results, which no test reads;
// - frames: axe is injected into every frame of the page and runs from the top one (`axe.run`,
//   which asks each frame's axe through messages). AxeBuilder gave each frame's injection 1 s and
//   silently skipped a frame that took longer: under load the hub's frame went unchecked (tried,
//   e2e/axe.spec.ts). Here a frame that cannot be checked fails the test.
// `e2e/axe.spec.ts` proves the check reports violations, in a page and inside a frame.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page } from "@playwright/test";

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

type Violation = {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[] }[];
};

/** axe-core's violations on the page as it is now, one line per rule with its nodes. */
export async function axeViolations(
  page: Page,
  options: { include?: string } = {},
): Promise<string[]> {
  // A document that was replaced has no axe any more; one still shown keeps it.
  for (const frame of page.frames()) {
    if (!(await frame.evaluate(() => "axe" in window))) await frame.evaluate(axeSource);
  }
  const violations = await page.evaluate(async (include) => {
    type Axe = { run(context: unknown, options: unknown): Promise<{ violations: Violation[] }> };
    const { axe } = window as unknown as { axe: Axe };
    const context = include ? { include: [[include]] } : document;
    return (await axe.run(context, { resultTypes: ["violations"] })).violations;
  }, options.include ?? null);
  return violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`,
  );
}

/** Fails naming `state` and every violation when axe-core finds any on the page as it is now. */
export async function expectNoAxeViolations(
  page: Page,
  state: string,
  options: { include?: string } = {},
): Promise<void> {
  expect(await axeViolations(page, options), state).toEqual([]);
}
