// Queries of the trial_claims table (migration 10): the normalised address
// (domain/account/trials.ts trialIdentity) of every trial started, kept when the account is
// deleted, so that one person gets one trial whatever spelling or account they come back with.
// Kysely's typed builder (decision 0082).
import type { Queryable } from "./db.ts";

export const TrialClaims = {
  async taken(q: Queryable, identity: string): Promise<boolean> {
    const row = await q.kysely
      .selectFrom("trial_claims")
      .select("user_id")
      .where("identity", "=", identity)
      .executeTakeFirst();
    return row !== undefined;
  },
  /** Records a trial for this identity; false when one was recorded first. */
  async claim(
    q: Queryable,
    claim: { identity: string; userId: number; productCode: string; now: number },
  ): Promise<boolean> {
    const result = await q.kysely
      .insertInto("trial_claims")
      .values({
        identity: claim.identity,
        user_id: claim.userId,
        product_code: claim.productCode,
        created_at: claim.now,
      })
      .onConflict((c) => c.column("identity").doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  },
};
