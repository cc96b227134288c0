// A team owner's members on the account page (issue 34, item 3): the list, and Remove. Removing
// holds the owner's account lock (the route's flag), like every team change, and takes the member
// out the way a member leaves (services/teams.ts `leaveTeam`): their seat is free at once and they
// lose the team's plan at once. The member is read again inside the transaction, so a member who
// left or was removed meanwhile is `member_not_found`, never a second change.
import { api } from "../../contract/index.ts";
import { Users } from "../db/users.ts";
import { fail, json } from "../http/reply.ts";
import type { Routes } from "../routing.ts";
import { leaveTeam } from "../services/teams.ts";
import { accountOf } from "./helpers.ts";

function displayName(user: { firstName: string; lastName: string; email: string }): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

export function teamMemberRoutes(routes: Routes): void {
  routes.api(api.teamMembers, async (ctx, { user }) => {
    const account = await accountOf(ctx, user);
    if (!account.instance || !account.isOwner) return fail("not_instance_owner");
    const members = await Users.membersOf(ctx.app.db, account.instance.id);
    return json({
      members: members.map((m) => ({
        id: m.id,
        email: m.email,
        name: displayName(m),
        owner: m.id === account.user.id,
      })),
      usedSeats: account.usedSeats,
    });
  });

  routes.api(api.removeTeamMember, async (ctx, { params, account }) => {
    const instance = account.instance;
    if (!instance || !account.isOwner) return fail("not_instance_owner");
    if (params.id === account.user.id) return fail("owner_cannot_leave");
    const usedSeats = await ctx.app.db.transaction(async (tx) => {
      const member = await Users.byId(tx, params.id);
      if (!member || member.instanceId !== instance.id) return null;
      await leaveTeam(tx, member.id);
      return Users.countApprovedMembers(tx, instance.id);
    });
    if (usedSeats === null) return fail("member_not_found");
    return json({ success: true, usedSeats });
  });
}
