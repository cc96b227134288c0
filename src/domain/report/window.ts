// The report's window and its calendar slices, all in UTC: months (for MRR) and weeks that
// start on Monday (for movements). A window is [from, to): from inclusive, to exclusive.
import { addMonthsClamped } from "../calendar/months.ts";

export type Window = { from: number; to: number };
export type Slice = { label: string; start: number; end: number };

const DAY = 86_400_000;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The default window: the 12 months up to `now`. */
export function lastTwelveMonths(now: number): Window {
  return { from: addMonthsClamped(now, -12), to: now };
}

/** The calendar months the window touches, each cut to the window ("2026-01"). */
export function monthsOf(w: Window): Slice[] {
  const months: Slice[] = [];
  const first = new Date(w.from);
  let y = first.getUTCFullYear();
  let m = first.getUTCMonth();
  for (;;) {
    const start = Date.UTC(y, m, 1);
    if (start >= w.to) break;
    const end = Date.UTC(y, m + 1, 1);
    months.push({
      label: `${y}-${String(m + 1).padStart(2, "0")}`,
      start: Math.max(start, w.from),
      end: Math.min(end, w.to),
    });
    m += 1;
    if (m === 12) {
      m = 0;
      y += 1;
    }
  }
  return months;
}

/** The weeks (Monday 00:00 UTC to Monday) the window touches, each cut to the window. */
export function weeksOf(w: Window): Slice[] {
  const weeks: Slice[] = [];
  const day = Math.floor(w.from / DAY) * DAY;
  // 1970-01-01 was a Thursday: days since a Monday are (days + 3) mod 7.
  let start = day - ((((day / DAY + 3) % 7) + 7) % 7) * DAY;
  while (start < w.to) {
    const end = start + 7 * DAY;
    weeks.push({ label: isoDay(start), start: Math.max(start, w.from), end: Math.min(end, w.to) });
    start = end;
  }
  return weeks;
}

/** The index of the slice holding `at`, or -1. */
export function sliceOf(slices: readonly Slice[], at: number): number {
  return slices.findIndex((s) => at >= s.start && at < s.end);
}
