// Queries of the idempotency_keys table (see services/idempotency.ts for the protocol).
import type { Db, Queryable } from "./db.ts";

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

type Raw = {
  user_id: number;
  key: string;
  fingerprint: string;
  state: "pending" | "done";
  owner: string;
  lease_until: number | null;
  status: number | null;
  response: string | null;
  created_at: number;
};

type NewClaim = {
  userId: number;
  key: string;
  fingerprint: string;
  owner: string;
  now: number;
  leaseUntil: number;
};

const CLAIM_SQL = `INSERT INTO idempotency_keys (user_id, key, fingerprint, state, owner, created_at, lease_until)
       VALUES (?, ?, ?, 'pending', ?, ?, ?) ON CONFLICT (user_id, key) DO NOTHING`;

const claimParams = (r: NewClaim) => [r.userId, r.key, r.fingerprint, r.owner, r.now, r.leaseUntil];

export const IdempotencyKeys = {
  async get(q: Queryable, userId: number, key: string): Promise<IdempotencyRecord | null> {
    const r = await q.get<Raw>("SELECT * FROM idempotency_keys WHERE user_id = ? AND key = ?", [
      userId,
      key,
    ]);
    return r
      ? {
          userId: r.user_id,
          key: r.key,
          fingerprint: r.fingerprint,
          state: r.state,
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
    return (await q.run(CLAIM_SQL, claimParams(r))).changes === 1;
  },
  /**
   * Claims a key in a statement that commits alone (Db.runAlone): a new key, the common case,
   * costs one round trip and no serializable transaction. False when a record exists already.
   */
  async claimAlone(db: Db, r: NewClaim): Promise<boolean> {
    return (await db.runAlone(CLAIM_SQL, claimParams(r))).changes === 1;
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
    const lease = r.runOutBy === null ? "" : " AND (lease_until IS NULL OR lease_until <= ?)";
    const result = await q.run(
      `UPDATE idempotency_keys SET owner = ?, lease_until = ?
       WHERE user_id = ? AND key = ? AND state = 'pending' AND owner = ?${lease}`,
      [r.to, r.leaseUntil, r.userId, r.key, r.from, ...(r.runOutBy === null ? [] : [r.runOutBy])],
    );
    return result.changes === 1;
  },
  /** Extends the lease of a pending key its owner is still working on; false if it lost it. */
  async renew(
    q: Queryable,
    r: { userId: number; key: string; owner: string; leaseUntil: number },
  ): Promise<boolean> {
    const result = await q.run(
      `UPDATE idempotency_keys SET lease_until = ?
       WHERE user_id = ? AND key = ? AND state = 'pending' AND owner = ?`,
      [r.leaseUntil, r.userId, r.key, r.owner],
    );
    return result.changes === 1;
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
    const result = await q.run(
      `UPDATE idempotency_keys SET state = 'done', status = ?, response = ?, completed_at = ?
       WHERE user_id = ? AND key = ? AND state = 'pending' AND owner = ?`,
      [r.status, r.response, r.now, r.userId, r.key, r.owner],
    );
    return result.changes === 1;
  },
  async release(q: Queryable, userId: number, key: string, owner: string): Promise<void> {
    await q.run(
      "DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND state = 'pending' AND owner = ?",
      [userId, key, owner],
    );
  },
  async deleteOlderThan(q: Queryable, before: number): Promise<number> {
    return (
      await q.run("DELETE FROM idempotency_keys WHERE state = 'done' AND created_at < ?", [before])
    ).changes;
  },
};
