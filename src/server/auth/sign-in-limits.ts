// Sign-in limits that an attacker cannot turn against the account's owner
// (docs/decisions/0010-client-address-and-sign-in-limits.md). Only failures count, per account
// and per (account, client) pair:
// - a client that keeps failing on an account waits, whether its next password is right or not,
//   so it learns nothing from trying faster;
// - when the account's failures are spent (an attack from many addresses), the account is not
//   locked: a client with no failure on it still has its password checked, so the owner signs in
//   while the attacker's clients wait.
// Each attempt holds its tokens while the password is checked and gives them back when it was
// right, so parallel requests cannot all slip past the counts before the first failure lands.
import type { RateLimiter } from "../http/rate-limit.ts";

export type SignInPermit =
  | {
      ok: true;
      /** Reports whether the password was right; only a failure stays counted. */
      settle(succeeded: boolean): Promise<void>;
    }
  | { ok: false; retryAfterSeconds: number };

/** Whether this client may have a password for this account checked now. */
export async function admitSignIn(
  limiter: RateLimiter,
  account: string,
  client: string,
): Promise<SignInPermit> {
  // The client first: it never holds "|", so no two pairs share a key.
  const pair = `${client}|${account}`;
  const clean = await limiter.isFull("signInFailuresPerAccountClient", pair);
  const own = await limiter.take("signInFailuresPerAccountClient", pair);
  if (!own.ok) return own;
  const shared = await limiter.take("signInFailuresPerAccount", account);
  if (!shared.ok && !clean) {
    await limiter.give("signInFailuresPerAccountClient", pair);
    return {
      ok: false,
      retryAfterSeconds: Math.min(
        shared.retryAfterSeconds,
        await limiter.secondsUntilFull("signInFailuresPerAccountClient", pair),
      ),
    };
  }
  return {
    ok: true,
    async settle(succeeded) {
      if (!succeeded) return;
      await limiter.give("signInFailuresPerAccountClient", pair);
      if (shared.ok) await limiter.give("signInFailuresPerAccount", account);
    },
  };
}
