import { describe, expect, it } from "vitest";
import type { Experiment } from "../catalog/catalog-schema.ts";
import {
  bucketOf,
  experimentFor,
  groupFor,
  isVisitorId,
  runningExperiments,
} from "./assignment.ts";

const experiment: Experiment = {
  id: "pro-price",
  description: "",
  groups: [
    { set: "control", share: 50 },
    { set: "low", share: 30 },
    { set: "high", share: 20 },
  ],
  plans: ["wv_bizindiv_1m"],
  audiences: ["new"],
  from: 1_000,
  to: 2_000,
};

/** Visitor ids as browsers make them (random UUIDs), from a seeded generator. */
function visitorIds(n: number, seed: number): string[] {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s.toString(16).padStart(8, "0");
  };
  return Array.from({ length: n }, () => `${next()}-${next()}-${next()}-${next()}`);
}

describe("assignment", () => {
  it("gives each group its share of many visitors, within statistical bounds", () => {
    const n = 40_000;
    const counts = new Map<string, number>();
    for (const id of visitorIds(n, 7)) {
      const g = groupFor(experiment, id);
      counts.set(g, (counts.get(g) ?? 0) + 1);
    }
    for (const { set, share } of experiment.groups) {
      const p = share / 100;
      const sd = Math.sqrt(n * p * (1 - p));
      // 4.5 standard deviations: a fair assignment fails this about once in 150,000 runs.
      expect(Math.abs((counts.get(set) ?? 0) - n * p)).toBeLessThan(4.5 * sd);
    }
  });

  it("is the same for the same visitor every time, and independent between experiments", () => {
    const ids = visitorIds(2_000, 11);
    expect(ids.map((id) => groupFor(experiment, id))).toEqual(
      ids.map((id) => groupFor(experiment, id)),
    );
    const other = { ...experiment, id: "other" };
    const same = ids.filter((id) => groupFor(experiment, id) === groupFor(other, id)).length;
    // Independent: P(same) = 0.5² + 0.3² + 0.2² = 0.38.
    expect(same / ids.length).toBeGreaterThan(0.34);
    expect(same / ids.length).toBeLessThan(0.42);
  });

  it("maps buckets 0..9999 onto the cumulative shares", () => {
    for (const id of visitorIds(500, 3)) {
      const b = bucketOf(experiment.id, id);
      expect(b).toBeGreaterThanOrEqual(0);
      expect(b).toBeLessThan(10_000);
      expect(groupFor(experiment, id)).toBe(b < 5_000 ? "control" : b < 8_000 ? "low" : "high");
    }
  });

  it("runs an experiment inside its window only, and finds it by plan", () => {
    const catalog = { experiments: [experiment] };
    expect(runningExperiments(catalog, 999)).toEqual([]);
    expect(runningExperiments(catalog, 1_000)).toEqual([experiment]);
    expect(runningExperiments(catalog, 2_000)).toEqual([]);
    expect(experimentFor(catalog, "wv_bizindiv_1m", 1_500)).toBe(experiment);
    expect(experimentFor(catalog, "wv_bizindiv_12m", 1_500)).toBeUndefined();
  });

  it("accepts only safe visitor ids", () => {
    expect(isVisitorId("0b6a1f64-1c8e-4b57-9a0e-2f3c5d6e7f80")).toBe(true);
    expect(isVisitorId("short")).toBe(false);
    expect(isVisitorId("a".repeat(65))).toBe(false);
    expect(isVisitorId("0b6a1f64;1c8e=4b57 9a0e")).toBe(false);
    expect(isVisitorId(undefined)).toBe(false);
  });
});
