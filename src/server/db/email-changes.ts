// Queries of the email_changes table: a change of e-mail address waiting for the code sent to
// the new address (issue 18, item 12). One per user; a new request replaces the old one. Kysely's
// typed builder (decision 0082).
import type { Queryable } from "./db.ts";

export type EmailChange = {
  userId: number;
  email: string;
  codeHash: string;
  attempts: number;
  createdAt: number;
  expiresAt: number;
};

export const EmailChanges = {
  async put(q: Queryable, c: Omit<EmailChange, "attempts">): Promise<void> {
    await q.kysely.deleteFrom("email_changes").where("user_id", "=", c.userId).execute();
    await q.kysely
      .insertInto("email_changes")
      .values({
        user_id: c.userId,
        email: c.email,
        code_hash: c.codeHash,
        attempts: 0,
        created_at: c.createdAt,
        expires_at: c.expiresAt,
      })
      .execute();
  },
  /** The user's pending change, if it has not expired. */
  async activeFor(q: Queryable, userId: number, now: number): Promise<EmailChange | null> {
    const r = await q.kysely
      .selectFrom("email_changes")
      .selectAll()
      .where("user_id", "=", userId)
      .where("expires_at", ">", now)
      .executeTakeFirst();
    return r
      ? {
          userId: r.user_id,
          email: r.email,
          codeHash: r.code_hash,
          attempts: r.attempts,
          createdAt: r.created_at,
          expiresAt: r.expires_at,
        }
      : null;
  },
  async countAttempt(q: Queryable, userId: number): Promise<void> {
    await q.kysely
      .updateTable("email_changes")
      .set((e) => ({ attempts: e("attempts", "+", 1) }))
      .where("user_id", "=", userId)
      .execute();
  },
  async delete(q: Queryable, userId: number): Promise<boolean> {
    const result = await q.kysely
      .deleteFrom("email_changes")
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },
};
