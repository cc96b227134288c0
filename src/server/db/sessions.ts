// Queries of the sessions table. Only a hash of the session id is stored. Kysely's typed builder
// (decision 0082).
import type { Queryable } from "./db.ts";

export const Sessions = {
  async insert(
    q: Queryable,
    row: { idHash: string; userId: number; createdAt: number; expiresAt: number },
  ): Promise<void> {
    await q.kysely
      .insertInto("sessions")
      .values({
        id_hash: row.idHash,
        user_id: row.userId,
        created_at: row.createdAt,
        expires_at: row.expiresAt,
      })
      .execute();
  },
  async delete(q: Queryable, idHash: string): Promise<void> {
    await q.kysely.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
  },
  /** Ends every session of a user but one (the request's own). */
  async deleteOthersOf(q: Queryable, userId: number, keepHash: string | null): Promise<void> {
    await q.kysely
      .deleteFrom("sessions")
      .where("user_id", "=", userId)
      .where("id_hash", "<>", keepHash ?? "")
      .execute();
  },
  async deleteForUser(q: Queryable, userId: number): Promise<void> {
    await q.kysely.deleteFrom("sessions").where("user_id", "=", userId).execute();
  },
  async deleteExpired(q: Queryable, now: number): Promise<number> {
    const result = await q.kysely
      .deleteFrom("sessions")
      .where("expires_at", "<=", now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
