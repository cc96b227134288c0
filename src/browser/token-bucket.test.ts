import { describe, expect, it } from "vitest";
import { createTokenBucket } from "./token-bucket.ts";

describe("token bucket", () => {
  it("refills one token per interval, never above its capacity", () => {
    let now = 0;
    const bucket = createTokenBucket({ capacity: 5, refillMs: 5_000, now: () => now });
    const take = (n: number) => Array.from({ length: n }, () => bucket.take());
    expect(take(6)).toEqual([true, true, true, true, true, false]);
    now = 12_500; // two intervals and a half
    expect(take(3)).toEqual([true, true, false]);
    now = 15_000; // the half already waited counts
    expect(take(2)).toEqual([true, false]);
    now = 1_000_000;
    expect(take(6)).toEqual([true, true, true, true, true, false]);
  });

  it("survives a clock that goes backwards", () => {
    let now = 100_000;
    const bucket = createTokenBucket({ capacity: 1, refillMs: 5_000, now: () => now });
    expect(bucket.take()).toBe(true);
    now = 0;
    expect(bucket.take()).toBe(false);
    now = 5_000;
    expect(bucket.take()).toBe(true);
  });
});
