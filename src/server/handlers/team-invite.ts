// The team owner's invitation link (issue 34, item 3), for the account page: the team's newest
// open invitation, or a new one. Open invitations are links anyone may use while a seat is free
// (services/teams.ts); two owners' tabs asking at once may each make one, and both work.
import { api } from "../../contract/index.ts";
import { randomToken } from "../auth/tokens.ts";
import { Invites } from "../db/instances.ts";
import { fail, json } from "../http/reply.ts";
import type { Routes } from "../routing.ts";
import { accountOf } from "./helpers.ts";

export function teamInviteRoutes(routes: Routes): void {
  routes.api(api.teamInvite, async (ctx, { user }) => {
    const account = await accountOf(ctx, user);
    if (!account.instance || !account.isOwner) return fail("not_instance_owner");
    const instanceId = account.instance.id;
    const code = await ctx.app.db.transaction(async (tx) => {
      const open = await Invites.openOf(tx, instanceId);
      if (open) return open.code;
      const made = randomToken(12);
      await Invites.insert(tx, {
        code: made,
        instanceId,
        inviterUserId: user.id,
        email: null,
        createdAt: ctx.now(),
        acceptedAt: null,
        acceptedBy: null,
      });
      return made;
    });
    return json({ path: `/cart/invite/${code}` });
  });
}
