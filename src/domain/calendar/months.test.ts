import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { arbUtcInstant } from "../testing/arbitraries.ts";
import { addMonthsClamped, periodBounds, periodEnd } from "./months.ts";

const DAY_MS = 86_400_000;
const utc = (y: number, m: number, d: number, h = 0, min = 0, s = 0, ms = 0) =>
  Date.UTC(y, m - 1, d, h, min, s, ms);
const iso = (ms: number) => new Date(ms).toISOString();

// The oracle: UTC parts read with the UTC getters, independent of date-fns.
function parts(ms: number) {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth();
  const day = d.getUTCDate();
  return {
    year,
    month,
    day,
    months: year * 12 + month,
    timeOfDay: ms - Date.UTC(year, month, day),
  };
}
const daysInMonth = (year: number, month: number) =>
  new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

const arbMonths = fc.integer({ min: -1200, max: 1200 });
const arbTerm = fc.constantFrom(1, 3, 6, 12, 24, 36);
const arbPeriod = fc.integer({ min: 0, max: 120 });

describe("addMonthsClamped: examples", () => {
  it("ends a month bought on 31 January on the last day of February, not in March", () => {
    expect(iso(addMonthsClamped(utc(2024, 1, 31, 15, 30), 1))).toBe("2024-02-29T15:30:00.000Z");
    expect(iso(addMonthsClamped(utc(2023, 1, 31, 15, 30), 1))).toBe("2023-02-28T15:30:00.000Z");
    expect(iso(addMonthsClamped(utc(2100, 1, 31), 1))).toBe("2100-02-28T00:00:00.000Z");
    expect(iso(addMonthsClamped(utc(2000, 1, 31), 1))).toBe("2000-02-29T00:00:00.000Z");
  });

  it("keeps the day when the target month has it", () => {
    expect(iso(addMonthsClamped(utc(2024, 1, 31), 2))).toBe("2024-03-31T00:00:00.000Z");
    expect(iso(addMonthsClamped(utc(2024, 1, 15, 12), 1))).toBe("2024-02-15T12:00:00.000Z");
    expect(iso(addMonthsClamped(utc(2024, 5, 31), 3))).toBe("2024-08-31T00:00:00.000Z");
  });

  it("crosses years, clamping 31 December + 2 months to February's end", () => {
    expect(iso(addMonthsClamped(utc(2024, 12, 31, 23, 59, 59, 999), 2))).toBe(
      "2025-02-28T23:59:59.999Z",
    );
    expect(iso(addMonthsClamped(utc(2027, 12, 31), 2))).toBe("2028-02-29T00:00:00.000Z");
    expect(iso(addMonthsClamped(utc(2024, 2, 29), 12))).toBe("2025-02-28T00:00:00.000Z");
    expect(iso(addMonthsClamped(utc(2024, 2, 29), 48))).toBe("2028-02-29T00:00:00.000Z");
  });

  it("counts back with negative months", () => {
    expect(iso(addMonthsClamped(utc(2024, 3, 31, 8), -1))).toBe("2024-02-29T08:00:00.000Z");
    expect(iso(addMonthsClamped(utc(2025, 3, 31), -1))).toBe("2025-02-28T00:00:00.000Z");
    expect(iso(addMonthsClamped(utc(2025, 1, 31), -2))).toBe("2024-11-30T00:00:00.000Z");
    expect(iso(addMonthsClamped(utc(2025, 1, 31), -12))).toBe("2024-01-31T00:00:00.000Z");
  });

  it("returns the same instant for zero months", () => {
    expect(addMonthsClamped(utc(2024, 1, 31, 1, 2, 3, 4), 0)).toBe(utc(2024, 1, 31, 1, 2, 3, 4));
  });

  it("refuses what is not a timestamp or a whole number of months", () => {
    expect(() => addMonthsClamped(Number.NaN, 1)).toThrow(RangeError);
    expect(() => addMonthsClamped(8.64e15 + 1, 1)).toThrow(RangeError);
    expect(() => addMonthsClamped(utc(2024, 1, 31), 1.5)).toThrow(
      "The number of months must be an integer; got 1.5.",
    );
    expect(() => addMonthsClamped(8.64e15 - DAY_MS, 12)).toThrow(RangeError);
  });
});

describe("periodEnd and periodBounds: examples", () => {
  it("anchors monthly periods of 31 January on each month's last day, without drift", () => {
    const anchor = utc(2024, 1, 31, 9, 15);
    const ends = Array.from({ length: 6 }, (_, n) => iso(periodEnd(anchor, n, 1)));
    expect(ends).toEqual([
      "2024-02-29T09:15:00.000Z",
      "2024-03-31T09:15:00.000Z",
      "2024-04-30T09:15:00.000Z",
      "2024-05-31T09:15:00.000Z",
      "2024-06-30T09:15:00.000Z",
      "2024-07-31T09:15:00.000Z",
    ]);
    // What chaining from the previous end would give instead: the 29th for ever.
    expect(iso(addMonthsClamped(addMonthsClamped(anchor, 1), 1))).toBe("2024-03-29T09:15:00.000Z");
  });

  it("brings a 29 February anniversary back in leap years", () => {
    const anchor = utc(2024, 2, 29);
    const ends = Array.from({ length: 4 }, (_, n) => iso(periodEnd(anchor, n, 12)));
    expect(ends).toEqual([
      "2025-02-28T00:00:00.000Z",
      "2026-02-28T00:00:00.000Z",
      "2027-02-28T00:00:00.000Z",
      "2028-02-29T00:00:00.000Z",
    ]);
  });

  it("starts each period where the one before ends", () => {
    const anchor = utc(2024, 1, 31);
    expect(periodBounds(anchor, 0, 1)).toEqual({ start: anchor, end: utc(2024, 2, 29) });
    expect(periodBounds(anchor, 1, 1)).toEqual({ start: utc(2024, 2, 29), end: utc(2024, 3, 31) });
    expect(periodBounds(anchor, 2, 3)).toEqual({ start: utc(2024, 7, 31), end: utc(2024, 10, 31) });
  });

  it("refuses a negative period or a term that is not a positive number of months", () => {
    expect(() => periodEnd(utc(2024, 1, 31), -1, 1)).toThrow(
      "The period index must be an integer of at least 0; got -1.",
    );
    expect(() => periodBounds(utc(2024, 1, 31), 0, 0)).toThrow(
      "The term in months must be an integer of at least 1; got 0.",
    );
    expect(() => periodEnd(utc(2024, 1, 31), 0.5, 1)).toThrow(RangeError);
  });
});

// The same properties under time zones on both sides of UTC, one of them at +12:45/+13:45, and
// Apia, which skipped 30 December 2011: the arithmetic is in UTC wherever the code runs.
describe.each(["UTC", "America/New_York", "Pacific/Chatham", "Pacific/Apia"])(
  "in TZ=%s",
  (zone) => {
    const saved = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = zone;
    });
    afterAll(() => {
      // Test files share the worker's process.env (vitest.config.ts): put it back exactly
      // (assigning undefined would set TZ to the string "undefined").
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    });

    it("runs in that zone", () => {
      const offset = new Date(utc(2024, 1, 31)).getTimezoneOffset();
      if (zone === "UTC") expect(offset).toBe(0);
      else expect(offset).not.toBe(0);
    });

    it("lands in the target month, on the anchor's day or the month's last, at the same time of day", () => {
      fc.assert(
        fc.property(arbUtcInstant, arbMonths, (ms, months) => {
          const from = parts(ms);
          const to = parts(addMonthsClamped(ms, months));
          expect(to.months).toBe(from.months + months);
          expect(to.day).toBe(Math.min(from.day, daysInMonth(to.year, to.month)));
          expect(to.timeOfDay).toBe(from.timeOfDay);
        }),
        { numRuns: 2_500 },
      );
    });

    it("is strictly increasing in the number of months", () => {
      fc.assert(
        fc.property(arbUtcInstant, arbMonths, arbMonths, (ms, a, b) => {
          fc.pre(a !== b);
          const [low, high] = a < b ? [a, b] : [b, a];
          expect(addMonthsClamped(ms, low)).toBeLessThan(addMonthsClamped(ms, high));
        }),
        { numRuns: 2_500 },
      );
    });

    it("undoes itself with the opposite count when no clamping happened, else stays in the month", () => {
      fc.assert(
        fc.property(arbUtcInstant, arbMonths, (ms, months) => {
          const there = addMonthsClamped(ms, months);
          const back = addMonthsClamped(there, -months);
          if (parts(there).day === parts(ms).day) expect(back).toBe(ms);
          else {
            // Clamped to a shorter month: back in the same month, no later than the start.
            expect(parts(back).months).toBe(parts(ms).months);
            expect(back).toBeLessThan(ms);
          }
        }),
        { numRuns: 2_500 },
      );
    });

    it("composes when the day is in every month (the 28th or before)", () => {
      fc.assert(
        fc.property(arbUtcInstant, arbMonths, arbMonths, (ms, a, b) => {
          fc.pre(parts(ms).day <= 28);
          expect(addMonthsClamped(addMonthsClamped(ms, a), b)).toBe(addMonthsClamped(ms, a + b));
        }),
        { numRuns: 2_500 },
      );
    });

    it("never drifts: period n ends on the anchor's day, or the last day of a shorter month", () => {
      fc.assert(
        fc.property(arbUtcInstant, arbPeriod, arbTerm, (anchor, n, term) => {
          const from = parts(anchor);
          const end = parts(periodEnd(anchor, n, term));
          expect(end.months).toBe(from.months + (n + 1) * term);
          expect(end.day).toBe(Math.min(from.day, daysInMonth(end.year, end.month)));
          expect(end.timeOfDay).toBe(from.timeOfDay);
        }),
        { numRuns: 2_500 },
      );
    });

    it("makes periods that are contiguous and strictly increasing from the anchor", () => {
      fc.assert(
        fc.property(arbUtcInstant, arbPeriod, arbTerm, (anchor, n, term) => {
          const period = periodBounds(anchor, n, term);
          const next = periodBounds(anchor, n + 1, term);
          expect(period.start).toBeLessThan(period.end);
          expect(next.start).toBe(period.end);
          expect(next.end).toBeGreaterThan(period.end);
          expect(periodBounds(anchor, 0, term).start).toBe(anchor);
          // A term is at least 28 days per month in it and at most 31.
          const days = (period.end - period.start) / DAY_MS;
          expect(days).toBeGreaterThanOrEqual(28 * term - 3);
          expect(days).toBeLessThanOrEqual(31 * term);
        }),
        { numRuns: 2_500 },
      );
    });
  },
);
