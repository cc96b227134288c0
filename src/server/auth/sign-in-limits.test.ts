import { describe, expect, it } from "vitest";
import { testClock } from "../clock.ts";
import { RATE_RULES, RateLimiter } from "../http/rate-limit.ts";
import { admitSignIn } from "./sign-in-limits.ts";

const ACCOUNT = "owner@example.com";
const PAIR_LIMIT = RATE_RULES.signInFailuresPerAccountClient.limit;
const ACCOUNT_LIMIT = RATE_RULES.signInFailuresPerAccount.limit;

async function attempt(
  limiter: RateLimiter,
  client: string,
  succeeds: boolean,
  account = ACCOUNT,
): Promise<boolean> {
  const permit = await admitSignIn(limiter, account, client);
  if (permit.ok) await permit.settle(succeeds);
  return permit.ok;
}

describe("admitSignIn", () => {
  it("counts failures only: right passwords never use up a client's attempts", async () => {
    const limiter = new RateLimiter(testClock(0));
    for (let i = 0; i < 50; i++) expect(await attempt(limiter, "198.51.100.9", true)).toBe(true);
    for (let i = 0; i < PAIR_LIMIT; i++)
      expect(await attempt(limiter, "198.51.100.9", false)).toBe(true);
  });

  it("holds back a failing client, right password or not, and only on that account", async () => {
    const clock = testClock(0);
    const limiter = new RateLimiter(clock);
    for (let i = 0; i < PAIR_LIMIT; i++) await attempt(limiter, "203.0.113.7", false);
    const refused = await admitSignIn(limiter, ACCOUNT, "203.0.113.7");
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 60 });
    expect(await attempt(limiter, "203.0.113.7", true, "other@example.com")).toBe(true);
    expect(await attempt(limiter, "198.51.100.9", true)).toBe(true);
    clock.advance(60_000);
    expect(await attempt(limiter, "203.0.113.7", true)).toBe(true);
  });

  it("lets a client without failures through when many addresses spent the account's failures", async () => {
    const limiter = new RateLimiter(testClock(0));
    const attackers = Array.from({ length: ACCOUNT_LIMIT }, (_, i) => `203.0.113.${i + 1}`);
    for (const attacker of attackers) await attempt(limiter, attacker, false);
    // Every attacker has failed once on the account: none gets another check during the attack.
    for (const attacker of attackers) {
      expect((await admitSignIn(limiter, ACCOUNT, attacker)).ok, attacker).toBe(false);
    }
    // The owner, from an address that has not been failing, is checked and signs in.
    expect(await attempt(limiter, "198.51.100.9", true)).toBe(true);
    expect(await attempt(limiter, "198.51.100.9", true)).toBe(true);
    // A fresh attacker address gets one check; after its failure it waits too.
    expect(await attempt(limiter, "192.0.2.1", false)).toBe(true);
    expect((await admitSignIn(limiter, ACCOUNT, "192.0.2.1")).ok).toBe(false);
  });

  it("counts attempts still being checked, so parallel guesses cannot pass the limit", async () => {
    const limiter = new RateLimiter(testClock(0));
    const permits = await Promise.all(
      Array.from({ length: PAIR_LIMIT + 3 }, () => admitSignIn(limiter, ACCOUNT, "203.0.113.7")),
    );
    expect(permits.filter((p) => p.ok)).toHaveLength(PAIR_LIMIT);
  });
});
