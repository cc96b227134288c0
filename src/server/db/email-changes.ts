// Queries of the email_changes table: a change of e-mail address waiting for the code sent to
// the new address (issue 18, item 12). One per user; a new request replaces the old one.
import type { Queryable } from "./db.ts";

export type EmailChange = {
  userId: number;
  email: string;
  codeHash: string;
  attempts: number;
  createdAt: number;
  expiresAt: number;
};

type Raw = {
  user_id: number;
  email: string;
  code_hash: string;
  attempts: number;
  created_at: number;
  expires_at: number;
};

export const EmailChanges = {
  async put(q: Queryable, c: Omit<EmailChange, "attempts">): Promise<void> {
    await q.run("DELETE FROM email_changes WHERE user_id = ?", [c.userId]);
    await q.run(
      `INSERT INTO email_changes (user_id, email, code_hash, attempts, created_at, expires_at)
       VALUES (?, ?, ?, 0, ?, ?)`,
      [c.userId, c.email, c.codeHash, c.createdAt, c.expiresAt],
    );
  },
  /** The user's pending change, if it has not expired. */
  async activeFor(q: Queryable, userId: number, now: number): Promise<EmailChange | null> {
    const r = await q.get<Raw>("SELECT * FROM email_changes WHERE user_id = ? AND expires_at > ?", [
      userId,
      now,
    ]);
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
    await q.run("UPDATE email_changes SET attempts = attempts + 1 WHERE user_id = ?", [userId]);
  },
  async delete(q: Queryable, userId: number): Promise<boolean> {
    return (await q.run("DELETE FROM email_changes WHERE user_id = ?", [userId])).changes === 1;
  },
};
