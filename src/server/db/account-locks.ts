// Queries of the account_locks table (see services/account-lock.ts for the protocol), with
// Kysely's typed builder (decision 0082).
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
    const result = await q.kysely
      .insertInto("account_locks")
      .values({
        user_id: r.userId,
        holder: r.holder,
        token: r.token,
        acquired_at: r.now,
        expires_at: r.expiresAt,
      })
      .onConflict((c) =>
        c
          .column("user_id")
          .doUpdateSet((e) => ({
            holder: e.ref("excluded.holder"),
            token: e.ref("excluded.token"),
            acquired_at: e.ref("excluded.acquired_at"),
            expires_at: e.ref("excluded.expires_at"),
          }))
          .where((w) =>
            w.or([
              w("account_locks.expires_at", "<=", w.ref("excluded.acquired_at")),
              w("account_locks.holder", "=", w.ref("excluded.holder")),
            ]),
          ),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  },
  /**
   * Releases the lock only if it is still this acquisition's (`token`): a request that never took
   * it, or whose lock was taken over since, frees nothing.
   */
  async release(q: Queryable, userId: number, token: string): Promise<boolean> {
    const result = await q.kysely
      .deleteFrom("account_locks")
      .where("user_id", "=", userId)
      .where("token", "=", token)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },
};
