// Time as a dependency: the server reads the time only through a Clock, so tests can set it
// (trials, expiry, campaign windows, proration, invoices, renewals).

export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that can be moved: the tests' clock, and a local run's with CLOCK=settable (moved
 * through POST /dev/clock). Whoever must react when time jumps (the renewal worker) listens.
 */
export type SettableClock = Clock & {
  set(ms: number): void;
  advance(ms: number): void;
  /** Calls `listener` after every change; returns the function that stops listening. */
  onChange(listener: (now: number) => void): () => void;
};

export type TestClock = SettableClock;

export function isSettableClock(clock: Clock): clock is SettableClock {
  const c = clock as Partial<SettableClock>;
  return (
    typeof c.set === "function" &&
    typeof c.advance === "function" &&
    typeof c.onChange === "function"
  );
}

/** Moves `offset` of a clock and tells its listeners; a listener that throws stops nobody. */
function settable(read: () => number, move: (deltaMs: number) => void): SettableClock {
  const listeners = new Set<(now: number) => void>();
  const changed = () => {
    const now = read();
    for (const listener of listeners) {
      try {
        listener(now);
      } catch {
        // A listener's failure is its own (the renewal worker logs its own errors).
      }
    }
  };
  return {
    now: read,
    set: (ms) => {
      move(ms - read());
      changed();
    },
    advance: (ms) => {
      move(ms);
      changed();
    },
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A clock that stands still at `startMs` until it is set or advanced (tests). */
export function testClock(startMs: number): TestClock {
  let current = startMs;
  return settable(
    () => current,
    (delta) => {
      current += delta;
    },
  );
}

/**
 * A clock that starts at `startMs` and runs at the speed of real time, until it is set or
 * advanced (a local run's CLOCK=settable: sessions and rate limits keep working between jumps).
 */
export function runningClock(startMs: number, realNow: () => number = Date.now): SettableClock {
  let offset = startMs - realNow();
  return settable(
    () => realNow() + offset,
    (delta) => {
      offset += delta;
    },
  );
}

export const DAY_MS = 24 * 60 * 60 * 1000;
