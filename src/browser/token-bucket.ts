// A token bucket: at most `capacity` events at once, then one more per `refillMs`. Error reports
// use it (spec 8: quota 5, refilled 1 per 5 s) so that a loop throwing on every frame sends five
// reports, not thousands. Pure: the clock is passed in.

export type TokenBucket = {
  /** Takes one token if there is one; false means the event is dropped. */
  take(): boolean;
};

export function createTokenBucket(options: {
  capacity: number;
  refillMs: number;
  now: () => number;
}): TokenBucket {
  const { capacity, refillMs, now } = options;
  let tokens = capacity;
  let last = now();
  return {
    take() {
      const elapsed = now() - last;
      const refills = Math.floor(elapsed / refillMs);
      if (refills > 0) {
        tokens = Math.min(capacity, tokens + refills);
        // Keep the part of an interval already waited, so refills stay on a 5 s rhythm.
        last += refills * refillMs;
      }
      // A clock that went backwards (a changed system time) starts a fresh interval.
      if (elapsed < 0) last = now();
      if (tokens === 0) return false;
      tokens -= 1;
      return true;
    },
  };
}
