// The visitor id an account's price experiments follow (users.visitor_id, migration 30; decision
// 0089). Kept apart from users.ts: it is set once (at sign-up from the browser's cookie, or at
// the first sign-in or pricing request that finds none) and never changed, so that the account
// keeps its groups on every device. Kysely's typed builder (decision 0082).
import type { Queryable } from "./db.ts";

export const Visitors = {
  /** The account's visitor id, or null when none is stored yet. */
  async idOf(q: Queryable, userId: number): Promise<string | null> {
    if (userId <= 0) return null;
    const row = await q.kysely
      .selectFrom("users")
      .select("visitor_id")
      .where("id", "=", userId)
      .executeTakeFirst();
    return row?.visitor_id ?? null;
  },

  /**
   * Stores `visitorId` on the account unless it has one, and answers the one it has afterwards:
   * the first writer's when two requests race.
   */
  async adopt(q: Queryable, userId: number, visitorId: string): Promise<string> {
    await q.kysely
      .updateTable("users")
      .set({ visitor_id: visitorId })
      .where("id", "=", userId)
      .where("visitor_id", "is", null)
      .execute();
    return (await Visitors.idOf(q, userId)) ?? visitorId;
  },
};
