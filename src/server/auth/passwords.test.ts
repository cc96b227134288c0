// Issue 18 item 18: password work has one global bound. Hashes run a few at a time with a short
// queue; a request beyond the queue is shed at once with 429, Retry-After and the usual
// { message, error_code } body, instead of waiting behind a flood (600 sign-ins once kept a real
// user waiting 160 s). Deterministic: the hasher here finishes only when the test says so. The
// time a legitimate sign-in takes during a flood is measured by `npm run bench`
// (scripts/bench-signin-flood.ts), not here.
import { describe, expect, it, vi } from "vitest";
import { api } from "../../contract/index.ts";
import { startTestServer } from "../testing/harness.ts";
import { boundedHasher, type PasswordHasher, PasswordWorkBusy } from "./passwords.ts";

/** A hasher whose every call waits until released; verify answers "right-password-1" for "right-password-1". */
function heldHasher() {
  const held: (() => void)[] = [];
  const wait = () => new Promise<void>((resolve) => held.push(resolve));
  const hasher: PasswordHasher = {
    hash: async (password) => {
      await wait();
      return `plain$${password}`;
    },
    verify: async (password, stored) => {
      await wait();
      return stored === `plain$${password}`;
    },
    verifyDummy: async () => {
      await wait();
      return false;
    },
  };
  const releaseAll = () => {
    for (const go of held.splice(0)) go();
  };
  return { hasher, held, releaseAll };
}

const until = (condition: () => boolean) =>
  vi.waitFor(() => expect(condition()).toBe(true), { timeout: 10_000, interval: 5 });

describe("bounded password work", () => {
  it("runs `concurrency` hashes at once, queues `maxQueue`, and sheds the next", async () => {
    const { hasher, held, releaseAll } = heldHasher();
    const bounded = boundedHasher(hasher, {
      concurrency: 2,
      maxQueue: 3,
      maxWaitMs: 60_000,
      retryAfterSeconds: 1,
    });
    const calls = Array.from({ length: 5 }, (_, i) => bounded.verifyDummy(`p${i}`));
    await until(() => held.length === 2);
    expect([bounded.active, bounded.queued]).toEqual([2, 3]);
    await expect(bounded.hash("one too many")).rejects.toBeInstanceOf(PasswordWorkBusy);
    expect(bounded.shed).toBe(1);
    // Each finished hash hands its turn to the next waiting one: released until all five ended.
    let ended = 0;
    for (const call of calls) void call.finally(() => ended++);
    await vi.waitFor(
      () => {
        releaseAll();
        expect(ended).toBe(calls.length);
      },
      { timeout: 10_000, interval: 1 },
    );
    expect(await Promise.all(calls)).toEqual([false, false, false, false, false]);
    expect([bounded.active, bounded.queued]).toEqual([0, 0]);
  });

  it("sheds a request whose wait, at the recent time of a hash, would pass maxWaitMs", async () => {
    // Every hash takes 50 ms of a clock of the test's own, whatever the machine's load.
    let time = 0;
    const held: (() => void)[] = [];
    const work = <T>(value: T) =>
      new Promise<T>((resolve) =>
        held.push(() => {
          time += 50;
          resolve(value);
        }),
      );
    const slow: PasswordHasher = {
      hash: () => work("h"),
      verify: () => work(false),
      verifyDummy: () => work(false as const),
    };
    const bounded = boundedHasher(
      slow,
      { concurrency: 1, maxQueue: 100, maxWaitMs: 120, retryAfterSeconds: 1 },
      () => time,
    );
    const pump = setInterval(() => held.shift()?.(), 1);
    try {
      await bounded.hash("learn how long a hash takes");
      const calls = Array.from({ length: 5 }, () =>
        bounded.hash("x").then(
          () => "ok",
          () => "shed",
        ),
      );
      // One hashing, two waiting (100 ms, under 120), the next two would wait 150 ms and more.
      expect(await Promise.all(calls)).toEqual(["ok", "ok", "ok", "shed", "shed"]);
    } finally {
      clearInterval(pump);
    }
  });

  it("answers a sign-in beyond the queue 429 with Retry-After, and the waiting ones as usual", {
    timeout: 30_000,
  }, async () => {
    const { hasher, held, releaseAll } = heldHasher();
    const server = await startTestServer({
      seed: false,
      passwords: hasher,
      passwordWork: { concurrency: 1, maxQueue: 1, maxWaitMs: 60_000, retryAfterSeconds: 2 },
    });
    try {
      // An account, its password hashed through the same bound.
      const client = server.client();
      const up = client.call(api.signUp, {
        body: {
          email: "real@example.com",
          password: "right-password-1",
          firstName: "R",
          lastName: "U",
        },
      });
      await until(() => held.length === 1);
      releaseAll();
      expect((await up).ok).toBe(true);

      const signIn = (email: string, password: string) =>
        server.client().call(api.signIn, { body: { email, password } });
      const first = signIn("real@example.com", "right-password-1"); // hashing
      await until(() => held.length === 1);
      const second = signIn("nobody@example.com", "guess"); // waiting
      const { passwords } = server.running.deps as unknown as {
        passwords: { queued: number };
      };
      await until(() => passwords.queued === 1);
      const third = await signIn("real@example.com", "right-password-1"); // shed
      expect(third.status).toBe(429);
      expect(third.headers.get("retry-after")).toBe("2");
      expect(third.body).toMatchObject({ error_code: "rate_limited" });
      expect(typeof (third.body as { message?: unknown }).message).toBe("string");

      // From here every hash is let through as it starts.
      const pump = setInterval(releaseAll, 2);
      try {
        expect((await first).status).toBe(200);
        expect((await second).status).toBe(401);
        // A shed attempt is not a failure: the account's own budget is whole, the retry works.
        expect((await signIn("real@example.com", "right-password-1")).status).toBe(200);
      } finally {
        clearInterval(pump);
      }
    } finally {
      releaseAll();
      await server.close();
    }
  });
});
