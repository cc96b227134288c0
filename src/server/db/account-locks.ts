// Queries of the account_locks table (see services/account-lock.ts for the protocol).
import type { Queryable } from "./db.ts";

export const AccountLocks = {
  /**
   * Takes the lock of an account for `holder` until `expiresAt`, under `token`, which names this
   * one acquisition. It succeeds when nobody holds it, when the last holder's lease has run out (a
   * process that died), or when `holder` holds it already (the same Idempotency-Key retried after
   * such a death). One statement, so two servers on one database cannot both win.
   */
  async acquire(
    q: Queryable,
    r: { userId: number; holder: string; token: string; now: number; expiresAt: number },
  ): Promise<boolean> {
    const result = await q.run(
      `INSERT INTO account_locks (user_id, holder, token, acquired_at, expires_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE
         SET holder = excluded.holder, token = excluded.token,
             acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
         WHERE account_locks.expires_at <= excluded.acquired_at
            OR account_locks.holder = excluded.holder`,
      [r.userId, r.holder, r.token, r.now, r.expiresAt],
    );
    return result.changes === 1;
  },
  /**
   * Releases the lock only if it is still this acquisition's (`token`): a request that never took
   * it, or whose lock was taken over since, frees nothing.
   */
  async release(q: Queryable, userId: number, token: string): Promise<boolean> {
    const result = await q.run("DELETE FROM account_locks WHERE user_id = ? AND token = ?", [
      userId,
      token,
    ]);
    return result.changes === 1;
  },
};
