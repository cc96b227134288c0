// Queries of the sessions table. Only a hash of the session id is stored.
import type { Queryable } from "./db.ts";

export const Sessions = {
  async insert(
    q: Queryable,
    row: { idHash: string; userId: number; createdAt: number; expiresAt: number },
  ): Promise<void> {
    await q.run(
      "INSERT INTO sessions (id_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
      [row.idHash, row.userId, row.createdAt, row.expiresAt],
    );
  },
  async delete(q: Queryable, idHash: string): Promise<void> {
    await q.run("DELETE FROM sessions WHERE id_hash = ?", [idHash]);
  },
  /** Ends every session of a user but one (the request's own). */
  async deleteOthersOf(q: Queryable, userId: number, keepHash: string | null): Promise<void> {
    await q.run("DELETE FROM sessions WHERE user_id = ? AND id_hash <> ?", [
      userId,
      keepHash ?? "",
    ]);
  },
  async deleteForUser(q: Queryable, userId: number): Promise<void> {
    await q.run("DELETE FROM sessions WHERE user_id = ?", [userId]);
  },
  async deleteExpired(q: Queryable, now: number): Promise<number> {
    return (await q.run("DELETE FROM sessions WHERE expires_at <= ?", [now])).changes;
  },
};
