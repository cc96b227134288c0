import { describe, expect, it } from "vitest";
import { PassesAfterNow } from "./pass-after-now.ts";

/** Passes that end when the test says so, numbered in the order they started. */
function controlledPasses() {
  const ends: ((fail?: boolean) => void)[] = [];
  let started = 0;
  const pass = () => {
    started += 1;
    const n = started;
    return new Promise<number>((resolve, reject) =>
      ends.push((fail) => (fail ? reject(new Error(`pass ${n} failed`)) : resolve(n))),
    );
  };
  const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { pass, ends, started: () => started, turn };
}

describe("a pass after now", () => {
  it("starts a pass when none runs, and gives the callers that come while it runs one pass after it", async () => {
    const passes = new PassesAfterNow<number>();
    const { pass, ends, started, turn } = controlledPasses();
    const first = passes.after(pass);
    const waiting = [passes.after(pass), passes.after(pass), passes.after(pass)];
    expect(started()).toBe(1);
    ends.shift()?.();
    expect(await first).toBe(1);
    await turn();
    // One pass for the three, started after the one that ran when they called.
    expect(started()).toBe(2);
    ends.shift()?.();
    expect(await Promise.all(waiting)).toEqual([2, 2, 2]);
  });

  it("serves a waiting caller with the first pass that starts after the running one, whoever started it", async () => {
    const passes = new PassesAfterNow<number>();
    const { pass, ends, turn } = controlledPasses();
    void passes.after(pass);
    let served: number | undefined;
    void passes.after(pass).then((n) => {
      served = n;
    });
    // A steady stream, as orders come at 50 connections: as each pass ends, in the same turn (a
    // commit group wakes the requests it held back), another request asks for a pass and starts
    // one. The waiting caller must not be moved on to the pass after that one, and so on.
    for (let round = 0; round < 10 && served === undefined; round++) {
      ends.shift()?.();
      queueMicrotask(() => void passes.after(pass));
      await turn();
    }
    expect(served).toBe(2);
  });

  it("gives the waiting callers a pass of their own when the one running failed", async () => {
    const passes = new PassesAfterNow<number>();
    const { pass, ends, started, turn } = controlledPasses();
    const first = passes.after(pass);
    const waiting = passes.after(pass);
    ends.shift()?.(true);
    await expect(first).rejects.toThrow("pass 1 failed");
    await turn();
    expect(started()).toBe(2);
    ends.shift()?.();
    expect(await waiting).toBe(2);
  });
});
