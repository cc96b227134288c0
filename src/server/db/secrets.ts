// Queries of the secrets table: password-reset tokens and e-mail codes, stored hashed, single use,
// expiring, with a count of failed attempts. Kysely's typed builder (decision 0082).
import type { Selectable } from "kysely";
import type { Queryable } from "./db.ts";
import type { SecretsTable } from "./schema.ts";

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

const fromRow = (r: Selectable<SecretsTable>): Secret => ({
  hash: r.hash,
  kind: r.kind as SecretKind,
  userId: r.user_id,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  usedAt: r.used_at,
  attempts: r.attempts,
});

export const Secrets = {
  async insert(q: Queryable, s: Omit<Secret, "usedAt" | "attempts">): Promise<void> {
    await q.kysely
      .insertInto("secrets")
      .values({
        hash: s.hash,
        kind: s.kind,
        user_id: s.userId,
        created_at: s.createdAt,
        expires_at: s.expiresAt,
      })
      .execute();
  },
  async byHash(q: Queryable, hash: string, kind: SecretKind): Promise<Secret | null> {
    const row = await q.kysely
      .selectFrom("secrets")
      .selectAll()
      .where("hash", "=", hash)
      .where("kind", "=", kind)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  },
  /** The newest unused, unexpired secret of a kind for a user. */
  async activeFor(
    q: Queryable,
    userId: number,
    kind: SecretKind,
    now: number,
  ): Promise<Secret | null> {
    const row = await q.kysely
      .selectFrom("secrets")
      .selectAll()
      .where("user_id", "=", userId)
      .where("kind", "=", kind)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  },
  /** Marks a secret used; false when it was already used (a concurrent use lost the race). */
  async use(q: Queryable, hash: string, now: number): Promise<boolean> {
    const result = await q.kysely
      .updateTable("secrets")
      .set({ used_at: now })
      .where("hash", "=", hash)
      .where("used_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },
  async countAttempt(q: Queryable, hash: string): Promise<void> {
    await q.kysely
      .updateTable("secrets")
      .set((e) => ({ attempts: e("attempts", "+", 1) }))
      .where("hash", "=", hash)
      .execute();
  },
  /** Voids the unused secrets of a kind (a new code replaces the old ones). */
  async voidFor(q: Queryable, userId: number, kind: SecretKind, now: number): Promise<void> {
    await q.kysely
      .updateTable("secrets")
      .set({ used_at: now })
      .where("user_id", "=", userId)
      .where("kind", "=", kind)
      .where("used_at", "is", null)
      .execute();
  },
  async deleteExpired(q: Queryable, before: number): Promise<number> {
    const result = await q.kysely
      .deleteFrom("secrets")
      .where("expires_at", "<=", before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
