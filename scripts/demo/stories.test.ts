// The stories behind the season: one seed tells the same ones, visitor ids are what a browser
// makes, and the experiment's known truth holds in them: a visitor in the sample group buys
// Professional twice as often as one in the control.
import { describe, expect, it } from "vitest";
import { isVisitorId } from "../../src/domain/experiments/assignment.ts";
import { loadCatalog } from "../../src/server/catalog.ts";
import { PROFESSIONAL_RATE, SAMPLE_GROUP, seasonCalendar } from "./season.ts";
import { type Story, tellStories } from "./stories.ts";

const calendar = seasonCalendar(loadCatalog());
if (typeof calendar === "string") throw new Error(calendar);

const buysProfessional = (story: Story) =>
  story.steps.some((s) => s.action.kind === "buy" && s.action.product.startsWith("wv_bizindiv_"));

describe("the season's stories", () => {
  it("are the same for one seed and differ for another", () => {
    expect(tellStories(7, 200, calendar)).toEqual(tellStories(7, 200, calendar));
    expect(tellStories(8, 200, calendar)).not.toEqual(tellStories(7, 200, calendar));
  });

  it("give every visitor a distinct id a browser could have made, and arrivals within the window", () => {
    const stories = tellStories(1, 2000, calendar);
    expect(stories.every((s) => isVisitorId(s.visitorId))).toBe(true);
    expect(new Set(stories.map((s) => s.visitorId)).size).toBe(stories.length);
    const arrivals = stories.map((s) => s.steps[0]?.day ?? -1);
    expect(Math.min(...arrivals)).toBe(0);
    expect(Math.max(...arrivals)).toBe(calendar.arrivalDays - 1);
  });

  it("make a sample-group visitor buy Professional at its stated rate, the control at its own", () => {
    const stories = tellStories(3, 40_000, calendar);
    for (const group of ["control", SAMPLE_GROUP]) {
      const members = stories.filter((s) => s.group === group);
      const rate = members.filter(buysProfessional).length / members.length;
      const expected = PROFESSIONAL_RATE[group] ?? Number.NaN;
      // Five standard errors either side: a wrong rate fails, chance alone does not.
      const bound = 5 * Math.sqrt((expected * (1 - expected)) / members.length);
      expect(Math.abs(rate - expected), `${group}: ${rate}`).toBeLessThan(bound);
    }
    expect(PROFESSIONAL_RATE[SAMPLE_GROUP]).toBeGreaterThan(PROFESSIONAL_RATE.control ?? 1);
  });
});
