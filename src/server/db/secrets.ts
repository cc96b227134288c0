// Queries of the secrets table: password-reset tokens and e-mail codes, stored hashed, single use,
// expiring, with a count of failed attempts.
import type { Queryable } from "./db.ts";

export type SecretKind = "reset" | "email_code";

export type Secret = {
  hash: string;
  kind: SecretKind;
  userId: number;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  attempts: number;
};

type Raw = {
  hash: string;
  kind: SecretKind;
  user_id: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  attempts: number;
};

const fromRaw = (r: Raw): Secret => ({
  hash: r.hash,
  kind: r.kind,
  userId: r.user_id,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  usedAt: r.used_at,
  attempts: r.attempts,
});

export const Secrets = {
  async insert(q: Queryable, s: Omit<Secret, "usedAt" | "attempts">): Promise<void> {
    await q.run(
      "INSERT INTO secrets (hash, kind, user_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
      [s.hash, s.kind, s.userId, s.createdAt, s.expiresAt],
    );
  },
  async byHash(q: Queryable, hash: string, kind: SecretKind): Promise<Secret | null> {
    const row = await q.get<Raw>("SELECT * FROM secrets WHERE hash = ? AND kind = ?", [hash, kind]);
    return row ? fromRaw(row) : null;
  },
  /** The newest unused, unexpired secret of a kind for a user. */
  async activeFor(
    q: Queryable,
    userId: number,
    kind: SecretKind,
    now: number,
  ): Promise<Secret | null> {
    const row = await q.get<Raw>(
      "SELECT * FROM secrets WHERE user_id = ? AND kind = ? AND used_at IS NULL AND expires_at > ? ORDER BY created_at DESC LIMIT 1",
      [userId, kind, now],
    );
    return row ? fromRaw(row) : null;
  },
  /** Marks a secret used; false when it was already used (a concurrent use lost the race). */
  async use(q: Queryable, hash: string, now: number): Promise<boolean> {
    const result = await q.run(
      "UPDATE secrets SET used_at = ? WHERE hash = ? AND used_at IS NULL",
      [now, hash],
    );
    return result.changes === 1;
  },
  async countAttempt(q: Queryable, hash: string): Promise<void> {
    await q.run("UPDATE secrets SET attempts = attempts + 1 WHERE hash = ?", [hash]);
  },
  /** Voids the unused secrets of a kind (a new code replaces the old ones). */
  async voidFor(q: Queryable, userId: number, kind: SecretKind, now: number): Promise<void> {
    await q.run(
      "UPDATE secrets SET used_at = ? WHERE user_id = ? AND kind = ? AND used_at IS NULL",
      [now, userId, kind],
    );
  },
  async deleteExpired(q: Queryable, before: number): Promise<number> {
    return (await q.run("DELETE FROM secrets WHERE expires_at <= ?", [before])).changes;
  },
};
