// Queries of the trial_claims table (migration 10): the normalised address
// (domain/account/trials.ts trialIdentity) of every trial started, kept when the account is
// deleted, so that one person gets one trial whatever spelling or account they come back with.
import type { Queryable } from "./db.ts";

export const TrialClaims = {
  async taken(q: Queryable, identity: string): Promise<boolean> {
    const row = await q.get("SELECT user_id FROM trial_claims WHERE identity = ?", [identity]);
    return row !== undefined && row !== null;
  },
  /** Records a trial for this identity; false when one was recorded first. */
  async claim(
    q: Queryable,
    claim: { identity: string; userId: number; productCode: string; now: number },
  ): Promise<boolean> {
    const result = await q.run(
      `INSERT INTO trial_claims (identity, user_id, product_code, created_at)
       VALUES (?, ?, ?, ?) ON CONFLICT (identity) DO NOTHING`,
      [claim.identity, claim.userId, claim.productCode, claim.now],
    );
    return result.changes === 1;
  },
};
