// The demo season is repeatable: one seed always leaves the same database contents, another seed
// other contents, and the experiment's events are there for each group. Three short seasons of a
// few dozen visitors each, played through a real server as `npm run demo-data` plays them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/server/catalog.ts";
import { memoryLogger } from "../../src/server/log.ts";
import { timeLimitScale } from "../time-limit-scale.ts";
import type { Census } from "./census.ts";
import { EXPERIMENT_ID, SAMPLE_GROUP, seasonCalendar } from "./season.ts";
import { playSeason } from "./season-run.ts";
import { tellStories } from "./stories.ts";

const VISITORS = 60;
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const calendar = seasonCalendar(loadCatalog());
if (typeof calendar === "string") throw new Error(calendar);

async function season(seed: number): Promise<Census> {
  const dataDir = mkdtempSync(join(tmpdir(), "demo-season-"));
  folders.push(dataDir);
  const log = memoryLogger();
  const { census } = await playSeason({
    stories: tellStories(seed, VISITORS, calendar as Exclude<typeof calendar, string>),
    calendar: calendar as Exclude<typeof calendar, string>,
    dataDir,
    log,
  });
  expect(log.lines.filter((l) => l.startsWith("error"))).toEqual([]);
  return census;
}

/** What must repeat: the counts (amounts may move a cent with the real seconds of a proration). */
function counts(census: Census) {
  const { ordersTotalCents: _, ...rest } = census;
  return rest;
}

describe("the demo season", () => {
  it(
    "leaves the same orders, invoices and experiment events for one seed, others for another, with events in each group",
    async () => {
      const [first, again, other] = await Promise.all([season(1), season(1), season(2)]);
      expect(counts(again)).toEqual(counts(first));
      expect(counts(other)).not.toEqual(counts(first));
      expect(first.invoices).toBeGreaterThan(0);
      expect(first.orders.plan).toBeGreaterThan(0);
      const groups = first.experimentEvents[EXPERIMENT_ID] ?? {};
      expect(Object.keys(groups).sort()).toEqual(["control", SAMPLE_GROUP]);
      for (const kinds of Object.values(groups)) expect(kinds.exposure).toBeGreaterThan(0);
    },
    120_000 * timeLimitScale("UNIT_TIMEOUT_SCALE"),
  );
});
