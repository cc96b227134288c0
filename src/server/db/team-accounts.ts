// Queries of the team_accounts table: accounts created by a team's invitation (issue 18, item
// 14), the only ones a disband with deleteMembers may delete.
import type { Queryable } from "./db.ts";

export const TeamAccounts = {
  async record(
    q: Queryable,
    r: { userId: number; instanceId: number; now: number },
  ): Promise<void> {
    await q.run(
      `INSERT INTO team_accounts (user_id, instance_id, created_at) VALUES (?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET instance_id = excluded.instance_id,
         created_at = excluded.created_at`,
      [r.userId, r.instanceId, r.now],
    );
  },
  /** The team whose invitation created the account, or null. */
  async createdFor(q: Queryable, userId: number): Promise<number | null> {
    const row = await q.get<{ instance_id: number }>(
      "SELECT instance_id FROM team_accounts WHERE user_id = ?",
      [userId],
    );
    return row ? Number(row.instance_id) : null;
  },
};
