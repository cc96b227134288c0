// Time as a dependency: the server reads the time only through a Clock, so tests can set it
// (trials, expiry, campaign windows, proration, invoices).

export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };

export type TestClock = Clock & { set(ms: number): void; advance(ms: number): void };

export function testClock(startMs: number): TestClock {
  let current = startMs;
  return {
    now: () => current,
    set: (ms) => {
      current = ms;
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The same instant `months` calendar months later (UTC). */
export function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.getTime();
}
