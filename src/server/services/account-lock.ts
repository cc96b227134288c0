// One change at a time per account. A purchase reads the account, prices it, charges the card and
// then writes the order; two purchases that overlap would both be priced from the same stale state
// and both charged (issue 7, item 1). Every call that changes an account's subscription or team
// membership therefore holds the account's lock from the moment it reads the account until its
// writes are committed. The lock is a row in the database (account_locks), not a mutex in this
// process, so it holds across several servers on one database; it is a lease, so an account whose
// server died mid-purchase is free again after LOCK_LEASE_MS, or at once for a retry with the same
// Idempotency-Key. A request that finds the lock taken is refused with 409 account_busy: a clear
// answer the client may retry, never a second charge.
import { randomId } from "../auth/tokens.ts";
import type { AppDeps } from "../context.ts";
import { AccountLocks } from "../db/account-locks.ts";
import { type User, Users } from "../db/users.ts";
import { type Account, loadAccount } from "./account.ts";

/** Longer than any purchase can take (the request times out after 30 s, a provider call sooner). */
export const LOCK_LEASE_MS = 5 * 60_000;

/** What taking an account's lock needs: the app's database, catalogue and clock. */
export type LockDeps = Pick<AppDeps, "db" | "catalog" | "clock">;

export type LockOutcome<T> =
  | { locked: true; value: T }
  | { locked: false; reason: "busy" | "no_user" };

/**
 * Runs `work` while holding the lock of the user's account, with the user and account read
 * afresh after the lock was taken (never the copies read with the session, which may be stale);
 * a busy or missing account is an answer (a handler refuses with `lockRefusal`). `holder` names
 * the holder; a retry of the same Idempotency-Key passes the same one. The contract's routes
 * with `accountLock` take it before their handler (routing.ts).
 */
export async function tryWithAccountLock<T>(
  deps: LockDeps,
  userId: number,
  work: (fresh: { user: User; account: Account }) => Promise<T>,
  holder = randomId("lock", 12),
): Promise<LockOutcome<T>> {
  const { db, catalog, clock } = deps;
  const now = clock.now();
  // This acquisition's own token: only it releases the lock (issue 18, item 7).
  const token = randomId("lt", 16);
  const acquired = await db.transaction((tx) =>
    AccountLocks.acquire(tx, { userId, holder, token, now, expiresAt: now + LOCK_LEASE_MS }),
  );
  if (!acquired) return { locked: false, reason: "busy" };
  try {
    const user = await Users.byId(db, userId);
    if (!user) return { locked: false, reason: "no_user" };
    const account = await loadAccount(db, catalog, user, clock.now());
    return { locked: true, value: await work({ user, account }) };
  } finally {
    await db.transaction((tx) => AccountLocks.release(tx, userId, token));
  }
}

/**
 * The refusal of a request whose account's lock was not taken: 409 account_busy (a clear answer
 * the client may retry), or, when the account is gone, not signed in.
 */
export function lockRefusal(reason: "busy" | "no_user"): "account_busy" | "not_authenticated" {
  return reason === "busy" ? "account_busy" : "not_authenticated";
}

/**
 * Whether a purchase's body buys a plan (which changes the account, so it holds the lock: the
 * table's `accountLock: "plan-change"`), rather than a one-off export priced apart from the
 * account's state, which may run side by side.
 */
export function buysPlan(catalog: { plans: readonly { code: string }[] }, body: unknown): boolean {
  const product = (body as { product?: { code?: unknown } | null } | undefined)?.product;
  const code = typeof product?.code === "string" ? product.code.trim() : undefined;
  return code !== undefined && catalog.plans.some((p) => p.code === code);
}
