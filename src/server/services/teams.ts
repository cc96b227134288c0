// Joining a team workspace, by its coupon or by an invitation: one rule (domain/account/teams.ts)
// applied in one transaction, under the joiner's account lock. The team's seats are counted inside
// the transaction that adds the member, after locking the team's row, so concurrent joins can
// never take more seats than the team has.
import { joinableSeats, type TeamPaid, teamPaidNow } from "../../domain/account/entitlements.ts";
import { type JoinRefusal, joinRefusal, memberFate } from "../../domain/account/teams.ts";
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import type { Ctx } from "../context.ts";
import type { Queryable } from "../db/db.ts";
import { type Instance, Instances, Invites } from "../db/instances.ts";
import { Orders } from "../db/orders.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import { paidFacts } from "./account.ts";
import { withOwnAccountLock } from "./account-lock.ts";

/**
 * What a team workspace has now: its owner's paid team plan and seats (domain entitlements), read
 * from the owner's subscription, never from a copy on the workspace.
 */
export async function teamPaidOf(
  q: Queryable,
  catalog: Catalog,
  instance: Instance,
  now: number,
): Promise<TeamPaid> {
  const owner =
    instance.ownerUserId === null ? null : await Subscriptions.get(q, instance.ownerUserId);
  return teamPaidNow(owner && paidFacts(owner), catalog.plans, now);
}

export type JoinResult =
  | { ok: true; instance: Instance }
  | { ok: false; reason: JoinRefusal | "used" | "wrong_email" | "not_found" };

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
      // A new member joins on what the team has now (a team whose plan ended has no seats), and
      // not beyond a scheduled seat reduction; invitations to an address hold their seats.
      const owner =
        instance.ownerUserId === null ? null : await Subscriptions.get(tx, instance.ownerUserId);
      const seats = joinableSeats(owner && paidFacts(owner), ctx.app.catalog.plans, now);
      const held =
        (await Users.countApprovedMembers(tx, instance.id)) +
        (await Invites.countPending(tx, instance.id, input.invite?.code ?? null));
      const refusal = joinRefusal({
        memberOfThis: account.instance?.id === instance.id,
        memberOfAnother: account.instance !== null && account.instance.id !== instance.id,
        paying,
        cancelSubscription: input.cancelSubscription,
        usedSeats: held,
        maxSeats: seats,
      });
      if (refusal) return { ok: false, reason: refusal };
      const invite = input.invite;
      if (invite?.email != null) {
        if (invite.email !== user.email) return { ok: false, reason: "wrong_email" };
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
