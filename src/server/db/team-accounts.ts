// Queries of the team_accounts table: accounts created by a team's invitation (issue 18, item
// 14), the only ones a disband with deleteMembers may delete. Kysely's typed builder (decision
// 0082).
import type { Queryable } from "./db.ts";

export const TeamAccounts = {
  async record(
    q: Queryable,
    r: { userId: number; instanceId: number; now: number },
  ): Promise<void> {
    await q.kysely
      .insertInto("team_accounts")
      .values({ user_id: r.userId, instance_id: r.instanceId, created_at: r.now })
      .onConflict((c) =>
        c.column("user_id").doUpdateSet((e) => ({
          instance_id: e.ref("excluded.instance_id"),
          created_at: e.ref("excluded.created_at"),
        })),
      )
      .execute();
  },
  /** The team whose invitation created the account, or null. */
  async createdFor(q: Queryable, userId: number): Promise<number | null> {
    const row = await q.kysely
      .selectFrom("team_accounts")
      .select("instance_id")
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row ? Number(row.instance_id) : null;
  },
};
