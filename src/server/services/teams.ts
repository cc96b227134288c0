// Joining a team workspace, by its coupon or by an invitation: one rule (domain/account/teams.ts)
// applied in one transaction, under the joiner's account lock. The team's seats are counted inside
// the transaction that adds the member, after locking the team's row, so concurrent joins can
// never take more seats than the team has.
import { type JoinRefusal, joinRefusal, memberFate } from "../../domain/account/teams.ts";
import type { Ctx } from "../context.ts";
import type { Queryable } from "../db/db.ts";
import { type Instance, Instances, Invites } from "../db/instances.ts";
import { Orders } from "../db/orders.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import { withOwnAccountLock } from "./account-lock.ts";

export type JoinResult =
  | { ok: true; instance: Instance }
  | {
      ok: false;
      reason: JoinRefusal | "used" | "wrong_email" | "email_not_verified" | "not_found";
    };

export async function joinTeam(
  ctx: Ctx,
  input: {
    instanceId: number;
    /** The invitation used, when the person came by one bound to an address. */
    invite: { code: string; email: string | null } | null;
    cancelSubscription: boolean;
  },
): Promise<JoinResult> {
  return withOwnAccountLock(ctx, async ({ user, account }) => {
    const now = ctx.now();
    const paying = account.orderState === "automatic" && account.sub.paidCents > 0;
    return ctx.app.db.transaction(async (tx): Promise<JoinResult> => {
      const instance = await Instances.byIdForUpdate(tx, input.instanceId);
      if (!instance) return { ok: false, reason: "not_found" };
      const refusal = joinRefusal({
        memberOfThis: account.instance?.id === instance.id,
        memberOfAnother: account.instance !== null && account.instance.id !== instance.id,
        paying,
        cancelSubscription: input.cancelSubscription,
        usedSeats: await Users.countApprovedMembers(tx, instance.id),
        maxSeats: instance.maxSeats,
      });
      if (refusal) return { ok: false, reason: refusal };
      const invite = input.invite;
      if (invite?.email != null) {
        if (invite.email !== user.email) return { ok: false, reason: "wrong_email" };
        // Only a verified address is the invited person's (issue 18, item 13).
        if (!user.emailVerified) return { ok: false, reason: "email_not_verified" };
        if (!(await Invites.accept(tx, invite.code, user.id, now))) {
          return { ok: false, reason: "used" };
        }
      }
      if (paying) {
        await Subscriptions.update(tx, user.id, {
          orderState: "cancelled",
          prevOrderState: "automatic",
          updatedAt: now,
        });
      }
      await Users.update(tx, user.id, {
        instanceId: instance.id,
        memberState: "approved",
        enterpriseRole: "member",
      });
      return { ok: true, instance };
    });
  });
}

/** Whether a member brought an account of their own that paid for something. */
export async function broughtPaidAccount(q: Queryable, userId: number): Promise<boolean> {
  if (await Orders.hasPaid(q, userId)) return true;
  const sub = await Subscriptions.get(q, userId);
  return sub !== null && sub.paidCents > 0;
}

/** What a disband does to one member (never deletes an account that paid for itself). */
export async function fateOf(
  q: Queryable,
  userId: number,
  deleteMembers: boolean,
): Promise<"delete" | "detach"> {
  return memberFate({
    deleteMembers,
    broughtPaidAccount: deleteMembers ? await broughtPaidAccount(q, userId) : false,
  });
}
