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
import { TeamAccounts } from "../db/team-accounts.ts";
import { Users } from "../db/users.ts";
import { paidFacts } from "./account.ts";
import { lockRefusal, tryWithAccountLock } from "./account-lock.ts";

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
  | {
      ok: false;
      reason:
        | JoinRefusal
        | "used"
        | "wrong_email"
        | "email_not_verified"
        | "not_found"
        | ReturnType<typeof lockRefusal>;
    };

export async function joinTeam(
  ctx: Ctx,
  input: {
    /** The person joining: the signed-in user. */
    userId: number;
    instanceId: number;
    /** The invitation used, when the person came by one bound to an address. */
    invite: { code: string; email: string | null; createdAt: number } | null;
    cancelSubscription: boolean;
  },
): Promise<JoinResult> {
  const locked = await tryWithAccountLock(ctx.app, input.userId, async ({ user, account }) => {
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
      // An account made for this invitation (after it, unused) is the team's to delete on a
      // disband with deleteMembers; any other stays the person's (issue 18, item 14).
      if (invite && user.createdAt >= invite.createdAt && !(await usedElsewhere(tx, user.id))) {
        await TeamAccounts.record(tx, { userId: user.id, instanceId: instance.id, now });
      }
      await Users.update(tx, user.id, {
        instanceId: instance.id,
        memberState: "approved",
        enterpriseRole: "member",
      });
      return { ok: true, instance };
    });
  });
  return locked.locked ? locked.value : { ok: false, reason: lockRefusal(locked.reason) };
}

/** Whether a member brought an account of their own that paid for something. */
async function broughtPaidAccount(q: Queryable, userId: number): Promise<boolean> {
  if (await Orders.hasPaid(q, userId)) return true;
  const sub = await Subscriptions.get(q, userId);
  return sub !== null && sub.paidCents > 0;
}

/** Whether an account has an order (a trial too), a trial or a payment of its own. */
export async function usedElsewhere(q: Queryable, userId: number): Promise<boolean> {
  if ((await Orders.countFor(q, userId)) > 0) return true;
  const user = await Users.byId(q, userId);
  if (user?.previousTrialOwner) return true;
  return broughtPaidAccount(q, userId);
}

/**
 * What a disband of `instanceId` does to one member: deletes only an account its invitation
 * created and that was never used elsewhere.
 */
export async function fateOf(
  q: Queryable,
  userId: number,
  deleteMembers: boolean,
  instanceId: number,
): Promise<"delete" | "detach"> {
  if (!deleteMembers) return "detach";
  return memberFate({
    deleteMembers,
    createdByInvitation: (await TeamAccounts.createdFor(q, userId)) === instanceId,
    usedElsewhere: await usedElsewhere(q, userId),
  });
}

/**
 * A member out of their team workspace: the one way a member leaves, whether they leave or the
 * owner removes them. Their seat is free at once, and what they may use follows at once too: an
 * account's plan is computed from its team only while it is a member (services/account.ts).
 */
export async function leaveTeam(q: Queryable, userId: number): Promise<void> {
  await Users.update(q, userId, { instanceId: null, memberState: null, enterpriseRole: null });
}
