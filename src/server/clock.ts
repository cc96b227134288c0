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
