// Queries of the idempotency_keys table (see services/idempotency.ts for the protocol), with
// Kysely's typed builder (decision 0082).
import type { Db, Queryable, SqlValue } from "./db.ts";

export type IdempotencyRecord = {
  userId: number;
  key: string;
  fingerprint: string;
  state: "pending" | "done";
  /** The server process (boot id) that is working on a pending key. */
  owner: string;
  /**
   * Until when (system time, ms) a pending key stays its owner's without a renewal; null for keys
   * from before leases (migration 7), which count as run out.
   */
  leaseUntil: number | null;
  status: number | null;
  response: string | null;
  createdAt: number;
};

type NewClaim = {
  userId: number;
  key: string;
  fingerprint: string;
  owner: string;
  now: number;
  leaseUntil: number;
};

/** The claim of a new key: nothing when a record for it exists already. */
const claimQuery = (q: Queryable, r: NewClaim) =>
  q.kysely
    .insertInto("idempotency_keys")
    .values({
      user_id: r.userId,
      key: r.key,
      fingerprint: r.fingerprint,
      state: "pending",
      owner: r.owner,
      created_at: r.now,
      lease_until: r.leaseUntil,
    })
    .onConflict((c) => c.columns(["user_id", "key"]).doNothing());

const changed = (result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }) =>
  Number(result.numUpdatedRows ?? result.numDeletedRows ?? 0);

/** A pending key of `owner`'s (the condition of every change its owner makes to it). */
const pendingOf = (r: { userId: number; key: string; owner: string }) =>
  ({ user_id: r.userId, key: r.key, owner: r.owner }) as const;

export const IdempotencyKeys = {
  async get(q: Queryable, userId: number, key: string): Promise<IdempotencyRecord | null> {
    const r = await q.kysely
      .selectFrom("idempotency_keys")
      .select([
        "user_id",
        "key",
        "fingerprint",
        "state",
        "owner",
        "lease_until",
        "status",
        "response",
        "created_at",
      ])
      .where("user_id", "=", userId)
      .where("key", "=", key)
      .executeTakeFirst();
    return r
      ? {
          userId: r.user_id,
          key: r.key,
          fingerprint: r.fingerprint,
          state: r.state as IdempotencyRecord["state"],
          owner: r.owner,
          leaseUntil: r.lease_until ?? null,
          status: r.status,
          response: r.response,
          createdAt: r.created_at,
        }
      : null;
  },
  /** Claims a key; false when a record for it exists already. */
  async claim(q: Queryable, r: NewClaim): Promise<boolean> {
    const result = await claimQuery(q, r).executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  },
  /**
   * Claims a key in a statement that commits alone (Db.runAlone): a new key, the common case,
   * costs one round trip and no serializable transaction. False when a record exists already.
   */
  async claimAlone(db: Db, r: NewClaim): Promise<boolean> {
    const { sql, parameters } = claimQuery(db, r).compile();
    return (await db.runAlone(sql, parameters as SqlValue[])).changes === 1;
  },
  /**
   * Takes over a pending key of `from`, a server process that is gone. With `runOutBy`, only if
   * its lease ran out by then (several servers: `from` may be alive on another machine).
   */
  async takeOver(
    q: Queryable,
    r: {
      userId: number;
      key: string;
      from: string;
      to: string;
      leaseUntil: number;
      runOutBy: number | null;
    },
  ): Promise<boolean> {
    const { runOutBy } = r;
    let update = q.kysely
      .updateTable("idempotency_keys")
      .set({ owner: r.to, lease_until: r.leaseUntil })
      .where("user_id", "=", r.userId)
      .where("key", "=", r.key)
      .where("state", "=", "pending")
      .where("owner", "=", r.from);
    if (runOutBy !== null) {
      update = update.where((w) =>
        w.or([w("lease_until", "is", null), w("lease_until", "<=", runOutBy)]),
      );
    }
    return changed(await update.executeTakeFirst()) === 1;
  },
  /** Extends the lease of a pending key its owner is still working on; false if it lost it. */
  async renew(
    q: Queryable,
    r: { userId: number; key: string; owner: string; leaseUntil: number },
  ): Promise<boolean> {
    const result = await q.kysely
      .updateTable("idempotency_keys")
      .set({ lease_until: r.leaseUntil })
      .where((w) => w.and(pendingOf(r)))
      .where("state", "=", "pending")
      .executeTakeFirst();
    return changed(result) === 1;
  },
  async complete(
    q: Queryable,
    r: {
      userId: number;
      key: string;
      owner: string;
      status: number;
      response: string;
      now: number;
    },
  ): Promise<boolean> {
    const result = await q.kysely
      .updateTable("idempotency_keys")
      .set({ state: "done", status: r.status, response: r.response, completed_at: r.now })
      .where((w) => w.and(pendingOf(r)))
      .where("state", "=", "pending")
      .executeTakeFirst();
    return changed(result) === 1;
  },
  async release(q: Queryable, userId: number, key: string, owner: string): Promise<void> {
    await q.kysely
      .deleteFrom("idempotency_keys")
      .where((w) => w.and(pendingOf({ userId, key, owner })))
      .where("state", "=", "pending")
      .execute();
  },
  async deleteOlderThan(q: Queryable, before: number): Promise<number> {
    const result = await q.kysely
      .deleteFrom("idempotency_keys")
      .where("state", "=", "done")
      .where("created_at", "<", before)
      .executeTakeFirst();
    return changed(result);
  },
};
