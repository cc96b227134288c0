import { describe, expect, it } from "vitest";
import { analyseExperiment, type GroupTally } from "./verdict.ts";

/** A seeded uniform generator (mulberry32), so every simulated experiment is reproducible. */
function uniform(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const PRICE_CENTS = 3_000;

function tally(group: string, over: Partial<GroupTally> = {}): GroupTally {
  return { group, exposed: 0, purchased: 0, revenueCents: 0, revenueSquares: 0, ...over };
}

/** One day of visitors for a group that buys at `rate`, each buyer paying PRICE_CENTS. */
function addDay(t: GroupTally, visitors: number, rate: number, random: () => number): void {
  for (let i = 0; i < visitors; i++) {
    t.exposed++;
    if (random() < rate) {
      t.purchased++;
      t.revenueCents += PRICE_CENTS;
      t.revenueSquares += PRICE_CENTS * PRICE_CENTS;
    }
  }
}

type Look = (control: GroupTally, sample: GroupTally) => void;

/** Runs an experiment for `days`, looking at the analysis after every day. */
function simulate(
  rates: { control: number; sample: number },
  days: number,
  perDay: number | { control: number; sample: number },
  seed: number,
  look: Look,
): void {
  const random = uniform(seed);
  const control = tally("control");
  const sample = tally("sample");
  const visitors = typeof perDay === "number" ? { control: perDay, sample: perDay } : perDay;
  for (let day = 0; day < days; day++) {
    addDay(control, visitors.control, rates.control, random);
    addDay(sample, visitors.sample, rates.sample, random);
    look(control, sample);
  }
}

/** The first verdict any daily look shows, or "no-verdict" if none ever does. */
function firstVerdict(rates: { control: number; sample: number }, seed: number): string {
  let first = "no-verdict";
  simulate(rates, 30, 100, seed, (control, sample) => {
    const kind = analyseExperiment([control, sample]).verdicts[0]?.kind ?? "no-verdict";
    if (first === "no-verdict") first = kind;
  });
  return first;
}

const RUNS = 400;
const ALPHA = 0.05;
/** alpha plus three binomial standard deviations over RUNS runs. */
const FALSE_RATE_LIMIT = ALPHA + 3 * Math.sqrt((ALPHA * (1 - ALPHA)) / RUNS);

describe("analyseExperiment, read every day", () => {
  it("an A/A experiment looked at every day for 30 days gives a false verdict at most at alpha", () => {
    let falseVerdicts = 0;
    let naiveFalse = 0;
    for (let seed = 1; seed <= RUNS; seed++) {
      let wrong = false;
      let naiveWrong = false;
      simulate({ control: 0.05, sample: 0.05 }, 30, 100, seed, (control, sample) => {
        const analysis = analyseExperiment([control, sample]);
        if (analysis.verdicts[0]?.kind !== "no-verdict") wrong = true;
        // What a fixed-sample 95 % interval would have said on the same look.
        const p1 = control.purchased / control.exposed;
        const p2 = sample.purchased / sample.exposed;
        const se = Math.sqrt((p1 * (1 - p1)) / control.exposed + (p2 * (1 - p2)) / sample.exposed);
        if (se > 0 && Math.abs(p2 - p1) > 1.96 * se) naiveWrong = true;
      });
      if (wrong) falseVerdicts++;
      if (naiveWrong) naiveFalse++;
    }
    expect(falseVerdicts / RUNS).toBeLessThanOrEqual(FALSE_RATE_LIMIT);
    // The simulation does catch peeking: a fixed-sample interval read daily errs far more often.
    expect(naiveFalse / RUNS).toBeGreaterThan(FALSE_RATE_LIMIT);
  });

  it("keeps to alpha with a rare purchase and unequal shares too", () => {
    const cases = [
      { rate: 0.01, perDay: { control: 150, sample: 150 } },
      { rate: 0.05, perDay: { control: 240, sample: 60 } },
    ];
    for (const { rate, perDay } of cases) {
      let falseVerdicts = 0;
      for (let seed = 1; seed <= RUNS; seed++) {
        let wrong = false;
        simulate({ control: rate, sample: rate }, 30, perDay, 20_000 + seed, (control, sample) => {
          if (analyseExperiment([control, sample]).verdicts[0]?.kind !== "no-verdict") wrong = true;
        });
        if (wrong) falseVerdicts++;
      }
      expect(falseVerdicts / RUNS).toBeLessThanOrEqual(FALSE_RATE_LIMIT);
    }
  });

  it("finds a true difference (5 % against 8 %) and points the right way", () => {
    const runs = 40;
    const seen = { up: { better: 0, worse: 0 }, down: { better: 0, worse: 0 } };
    for (let seed = 1; seed <= runs; seed++) {
      const up = firstVerdict({ control: 0.05, sample: 0.08 }, seed);
      const down = firstVerdict({ control: 0.08, sample: 0.05 }, 1_000 + seed);
      if (up !== "no-verdict") seen.up[up as "better" | "worse"]++;
      if (down !== "no-verdict") seen.down[down as "better" | "worse"]++;
    }
    expect(seen.up.better / runs).toBeGreaterThanOrEqual(0.8);
    expect(seen.down.worse / runs).toBeGreaterThanOrEqual(0.8);
    expect([seen.up.worse, seen.down.better]).toEqual([0, 0]);
  });

  it("calls a lower conversion worse", () => {
    const analysis = analyseExperiment([
      tally("control", { exposed: 6_000, purchased: 480 }),
      tally("sample", { exposed: 6_000, purchased: 300 }),
    ]);
    expect(analysis.verdicts).toEqual([
      expect.objectContaining({ group: "sample", kind: "worse", stillNeeded: null }),
    ]);
  });

  it("its intervals cover the true conversion, revenue per visitor and lift at every look", () => {
    const truth = { control: 0.05, sample: 0.08 };
    let missed = 0;
    for (let seed = 1; seed <= 200; seed++) {
      let miss = false;
      simulate(truth, 30, 100, 5_000 + seed, (control, sample) => {
        const [c, s] = analyseExperiment([control, sample]).groups;
        const covers = (i: { low: number; high: number } | null | undefined, value: number) =>
          i !== null && i !== undefined && i.low <= value && value <= i.high;
        if (
          !covers(c?.conversion, truth.control) ||
          !covers(s?.conversion, truth.sample) ||
          !covers(c?.revenuePerVisitorCents, truth.control * PRICE_CENTS) ||
          !covers(s?.revenuePerVisitorCents, truth.sample * PRICE_CENTS) ||
          !covers(s?.liftVsControl, truth.sample - truth.control)
        ) {
          miss = true;
        }
      });
      if (miss) missed++;
    }
    expect(missed / 200).toBeLessThanOrEqual(ALPHA);
  });
});

describe("analyseExperiment, no verdict yet", () => {
  it("says how many visitors per group are still needed for the observed difference", () => {
    const analysis = analyseExperiment([
      tally("control", { exposed: 500, purchased: 25 }),
      tally("sample", { exposed: 500, purchased: 40 }),
    ]);
    const verdict = analysis.verdicts[0];
    expect(verdict?.kind).toBe("no-verdict");
    const needed = verdict?.stillNeeded ?? 0;
    expect(needed).toBeGreaterThan(0);
    // With that many more visitors per group at the same rates the verdict is reached, not before.
    const kindAfter = (more: number) =>
      analyseExperiment([
        tally("control", { exposed: 500 + more, purchased: Math.round((500 + more) * 0.05) }),
        tally("sample", { exposed: 500 + more, purchased: Math.round((500 + more) * 0.08) }),
      ]).verdicts[0]?.kind;
    expect(kindAfter(Math.round(needed * 0.9))).toBe("no-verdict");
    expect(kindAfter(Math.round(needed * 1.05))).toBe("better");
    expect(verdict?.summary).toMatchInlineSnapshot(
      `"No verdict yet for sample: +3.0 points (always-valid 95 % interval -3.9 points to +9.9 points). About 1,047 more exposed visitors per group before a difference of 3.0 points could be called."`,
    );
  });

  it("counts toward a 20 % relative lift when the groups convert alike", () => {
    const analysis = analyseExperiment([
      tally("control", { exposed: 1_000, purchased: 50 }),
      tally("sample", { exposed: 1_000, purchased: 50 }),
    ]);
    expect(analysis.verdicts[0]?.summary).toContain("a difference of 1.0 points could be called");
    // 1.0 point is 20 % of the control's 5 %: a 5 % against 6 % split is called after that many.
    const needed = analysis.verdicts[0]?.stillNeeded ?? 0;
    const kindAfter = (more: number) =>
      analyseExperiment([
        tally("control", { exposed: 1_000 + more, purchased: Math.round((1_000 + more) * 0.05) }),
        tally("sample", { exposed: 1_000 + more, purchased: Math.round((1_000 + more) * 0.06) }),
      ]).verdicts[0]?.kind;
    expect(kindAfter(Math.round(needed * 0.9))).toBe("no-verdict");
    expect(kindAfter(Math.round(needed * 1.05))).toBe("better");
  });

  it("compares several groups with the control at alpha shared among them", () => {
    const two = analyseExperiment([
      tally("control", { exposed: 5_000, purchased: 250 }),
      tally("low", { exposed: 5_000, purchased: 300 }),
    ]);
    const three = analyseExperiment([
      tally("control", { exposed: 5_000, purchased: 250 }),
      tally("low", { exposed: 5_000, purchased: 300 }),
      tally("high", { exposed: 5_000, purchased: 200 }),
    ]);
    const width = (a: typeof two) => {
      const lift = a.groups.find((g) => g.group === "low")?.liftVsControl;
      return (lift?.high ?? 0) - (lift?.low ?? 0);
    };
    expect(width(three)).toBeGreaterThan(width(two));
    expect(three.verdicts.map((v) => v.group)).toEqual(["low", "high"]);
  });
});

describe("analyseExperiment, edge cases", () => {
  const allFinite = (value: unknown): boolean =>
    typeof value === "number"
      ? Number.isFinite(value)
      : typeof value === "object" && value !== null
        ? Object.values(value).every(allFinite)
        : true;

  it("gives whole, finite results with nobody exposed yet", () => {
    const analysis = analyseExperiment([tally("control"), tally("sample")]);
    expect(allFinite(analysis)).toBe(true);
    expect(analysis.groups[0]?.conversion).toEqual({ estimate: 0, low: 0, high: 1 });
    expect(analysis.groups[1]?.liftVsControl).toEqual({ estimate: 0, low: -1, high: 1 });
    expect(analysis.verdicts[0]).toMatchObject({ kind: "no-verdict" });
    expect(analysis.verdicts[0]?.stillNeeded).toBeGreaterThan(0);
  });

  it("gives an honest width to a group without purchases", () => {
    const analysis = analyseExperiment([
      tally("control", { exposed: 300, purchased: 0 }),
      tally("sample", { exposed: 300, purchased: 0 }),
    ]);
    expect(allFinite(analysis)).toBe(true);
    expect(analysis.groups[0]?.conversion.high).toBeGreaterThan(0);
    expect(analysis.groups[0]?.revenuePerVisitorCents).toEqual({ estimate: 0, low: 0, high: 0 });
    expect(analysis.verdicts[0]?.kind).toBe("no-verdict");
  });

  it("has no verdicts when only the control is tallied", () => {
    const analysis = analyseExperiment([tally("control", { exposed: 100, purchased: 4 })]);
    expect(analysis.verdicts).toEqual([]);
    expect(analysis.groups[0]?.liftVsControl).toBeNull();
  });

  it("says so when the control has no tally", () => {
    const analysis = analyseExperiment([tally("sample", { exposed: 100, purchased: 4 })]);
    expect(allFinite(analysis)).toBe(true);
    expect(analysis.verdicts[0]?.kind).toBe("no-verdict");
    expect(analysis.verdicts[0]?.summary).toContain("no tally for control yet");
  });

  it("takes another control and alpha when asked", () => {
    const analysis = analyseExperiment(
      [tally("base", { exposed: 10, purchased: 1 }), tally("sample", { exposed: 10 })],
      { control: "base", alpha: 0.1 },
    );
    expect(analysis.alpha).toBe(0.1);
    expect(analysis.rule).toContain("always-valid 90 % confidence sequence");
    expect(analysis.verdicts.map((v) => v.group)).toEqual(["sample"]);
  });

  it("refuses tallies that cannot be", () => {
    expect(() => analyseExperiment([tally("a"), tally("a")])).toThrow("Group a is tallied twice.");
    expect(() => analyseExperiment([tally("a", { exposed: -1 })])).toThrow(
      "a: exposed must be a number ≥ 0; got -1.",
    );
    expect(() => analyseExperiment([tally("a", { exposed: Number.NaN })])).toThrow(
      "a: exposed must be a number ≥ 0; got NaN.",
    );
    expect(() => analyseExperiment([tally("a", { exposed: 1, purchased: 2 })])).toThrow(
      "a: 2 purchases from 1 exposed visitors; each purchase needs an exposure.",
    );
    expect(() => analyseExperiment([], { alpha: 0 })).toThrow(
      "alpha must lie between 0 and 1 (exclusive); got 0.",
    );
  });
});
