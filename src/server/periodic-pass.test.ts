// The scheduler of the renewal worker, the Stripe reconciliation and the mail sender
// (periodic-pass.ts): passes are scripted promises the test ends, the interval is a fake timer
// and the clock the tests' clock, so nothing here waits on real time.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { testClock } from "./clock.ts";
import { memoryLogger } from "./log.ts";
import { PeriodicPass, type PeriodicPassOptions } from "./periodic-pass.ts";

beforeEach(() => {
  // Only the interval is faked: setImmediate stays real to let pending callbacks run (flush).
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets every callback already due run (promise reactions), without waiting on any time. */
const flush = () => new Promise<void>((done) => setImmediate(done));

/** A PeriodicPass whose passes each wait for the test to end them: `started[i].resolve(x)`. */
function scripted(options: Partial<PeriodicPassOptions<number>> = {}) {
  const started: PromiseWithResolvers<number>[] = [];
  const log = memoryLogger();
  const passes = new PeriodicPass<number>({
    pass: () => {
      const pass = Promise.withResolvers<number>();
      started.push(pass);
      return pass.promise;
    },
    fallback: -1,
    failure: "test: a pass failed",
    log,
    intervalMs: 1000,
    ...options,
  });
  return { passes, started, log };
}

describe("PeriodicPass", () => {
  it("runs a kick's pass at once, and exactly one more for any number of kicks during it", async () => {
    const { passes, started } = scripted({ intervalMs: 0 });
    const first = passes.kick();
    const during = [passes.kick(), passes.kick(), passes.kick()];
    await flush();
    expect(started).toHaveLength(1);

    started[0]?.resolve(1);
    expect(await first).toBe(1);
    await flush();
    expect(started).toHaveLength(2);
    // A kick during the follow-up asks for one more after it, as during any pass.
    const later = passes.kick();

    started[1]?.resolve(2);
    expect(await Promise.all(during)).toEqual([2, 2, 2]);
    await flush();
    expect(started).toHaveLength(3);
    started[2]?.resolve(3);
    expect(await later).toBe(3);
    await flush();
    expect(started).toHaveLength(3);
  });

  it("runs on its interval from one interval after start, and when a settable clock moves", async () => {
    const clock = testClock(0);
    const { passes, started } = scripted({ intervalMs: 1000, clock });
    passes.start();
    await flush();
    expect(started).toHaveLength(0);
    vi.advanceTimersByTime(1000);
    await flush();
    expect(started).toHaveLength(1);
    // Ticks during a pass ask for the one follow-up, not one each.
    vi.advanceTimersByTime(3000);
    started[0]?.resolve(1);
    await flush();
    expect(started).toHaveLength(2);
    started[1]?.resolve(2);
    await flush();

    clock.advance(60_000);
    await flush();
    expect(started).toHaveLength(3);
    started[2]?.resolve(3);
    await passes.stop();
  });

  it("runs a pass at start with atStart, once however often started", async () => {
    const { passes, started } = scripted({ intervalMs: 0, atStart: true });
    passes.start();
    passes.start();
    await flush();
    expect(started).toHaveLength(1);
    started[0]?.resolve(1);
    await passes.stop();
    expect(started).toHaveLength(1);
  });

  it("stops: waits for the running pass, drops the follow-up asked for, then runs only when kicked", async () => {
    const clock = testClock(0);
    const { passes, started } = scripted({ intervalMs: 1000, clock });
    passes.start();
    vi.advanceTimersByTime(1000);
    await flush();
    expect(started).toHaveLength(1);
    const followUp = passes.kick();

    let stopped = false;
    const stopping = passes.stop().then(() => {
      stopped = true;
    });
    await flush();
    expect(stopped).toBe(false);
    // A kick while stop() waits runs nothing: the server closes its database right after.
    expect(await passes.kick()).toBe(-1);
    started[0]?.resolve(1);
    await flush();
    expect(started).toHaveLength(1);
    await stopping;
    expect(await followUp).toBe(-1);
    expect(passes.running).toBeNull();

    // Neither the interval nor the clock starts a pass any more.
    vi.advanceTimersByTime(5000);
    clock.advance(60_000);
    await flush();
    expect(started).toHaveLength(1);
    // A kick after stop() runs its pass (the mailer's tests kick and stop, round after round).
    const again = passes.kick();
    await flush();
    expect(started).toHaveLength(2);
    started[1]?.resolve(2);
    expect(await again).toBe(2);
  });

  it("logs a failed pass, answers its fallback, and runs the next passes as usual", async () => {
    const log = memoryLogger();
    let calls = 0;
    const passes = new PeriodicPass<number>({
      pass: async () => {
        calls += 1;
        if (calls === 1) throw new Error("database is closed");
        return calls;
      },
      fallback: -1,
      failure: "test: a pass failed",
      log,
      intervalMs: 1000,
    });
    passes.start();
    expect(await passes.kick()).toBe(-1);
    expect(log.lines).toEqual([
      expect.stringMatching(/^error test: a pass failed Error: database is closed/),
    ]);
    vi.advanceTimersByTime(1000);
    await flush();
    expect(calls).toBe(2);
    expect(await passes.kick()).toBe(3);
    expect(log.lines).toHaveLength(1);
    await passes.stop();
  });
});
