// Coupons, invitations and analytics.
import { api } from "../../contract/index.ts";
import type { InviteFailureReason } from "../../domain/account/invites.ts";
import { maskEmail } from "../../domain/account/mask-email.ts";
import { FREE_PRODUCT } from "../../domain/account/tier.ts";
import type { CampaignEntry } from "../../domain/catalog/catalog-schema.ts";
import { couponMatches, isCampaignActive } from "../../domain/pricing/index.ts";
import type { Ctx } from "../context.ts";
import { type Instance, Instances, Invites } from "../db/instances.ts";
import { Users } from "../db/users.ts";
import { type ErrorReply, fail, json } from "../http/reply.ts";
import type { Routes } from "../routing.ts";
import { joinTeam, teamPaidOf } from "../services/teams.ts";
import { limitTelemetry, recordTelemetry, type TelemetryEvent } from "../services/telemetry.ts";
import { accountOf } from "./helpers.ts";

type CouponMatch =
  | { kind: "instance"; instance: Instance }
  | { kind: "campaign"; campaign: CampaignEntry };

async function findCoupon(
  ctx: Ctx,
  code: string,
): Promise<CouponMatch | ErrorReply<"coupon_not_found" | "coupon_not_active">> {
  const instance = await Instances.byCoupon(ctx.app.db, code);
  if (instance) return { kind: "instance", instance };
  const campaigns = ctx.app.catalog.campaigns.filter((c) => couponMatches(c, code));
  if (campaigns.length === 0) return fail("coupon_not_found");
  const active = campaigns.find((c) => isCampaignActive(c, ctx.now()));
  if (!active) return fail("coupon_not_active");
  return { kind: "campaign", campaign: active };
}

export function engagementRoutes(routes: Routes): void {
  routes.api(api.verifyCoupon, async (ctx, { params }) => {
    const code = params.code.trim();
    const match = await findCoupon(ctx, code);
    if ("status" in match) return match;
    if (match.kind === "instance") {
      return json({
        success: true,
        coupon: code,
        instanceName: match.instance.name,
        campaign: null,
      });
    }
    const c = match.campaign;
    return json({
      success: true,
      coupon: c.coupon,
      instanceName: null,
      campaign: {
        id: c.id,
        name: c.name,
        products: c.products,
        validTo: c.validTo,
        targeted: c.targeted,
      },
    });
  });

  routes.api(api.applyCoupon, async (ctx, { user, params }) => {
    const account = await accountOf(ctx, user);
    const code = params.code.trim();
    const match = await findCoupon(ctx, code);
    if ("status" in match) return match;
    if (match.kind === "instance") {
      if (account.managed && !account.isMember) return fail("managed_account");
      // The coupon path has no way to agree to a cancellation: a paying subscriber is told to
      // cancel first (the invitation path asks with cancelSubscription=true).
      const joined = await joinTeam(ctx, {
        userId: user.id,
        instanceId: match.instance.id,
        invite: null,
        cancelSubscription: false,
      });
      if (!joined.ok) {
        if (joined.reason === "account_busy" || joined.reason === "not_authenticated") {
          return fail(joined.reason);
        }
        if (joined.reason === "no_seats") return fail("no_seats");
        if (joined.reason === "active_subscription") return fail("active_subscription");
        return fail("coupon_not_applicable");
      }
      return json({ success: true, reason: "joined_instance", instanceName: match.instance.name });
    }
    await ctx.app.db.transaction((tx) =>
      Users.update(tx, account.user.id, { appliedCoupon: match.campaign.coupon }),
    );
    return json({ success: true, reason: "campaign_applied", instanceName: null });
  });

  // The checkout's "Remove coupon": the account prices without it from now on (issue 18, item 10).
  routes.api(api.removeCoupon, async (ctx, { user }) => {
    await ctx.app.db.transaction((tx) => Users.update(tx, user.id, { appliedCoupon: null }));
    return json({ success: true });
  });

  routes.api(api.inviteInfo, async (ctx, { params }) => {
    const invite = await Invites.byCode(ctx.app.db, params.code);
    const instance = invite ? await Instances.byId(ctx.app.db, invite.instanceId) : null;
    if (!invite || !instance) return fail("invite_not_found");
    const inviter = invite.inviterUserId
      ? await Users.byId(ctx.app.db, invite.inviterUserId)
      : null;
    // The plan a new member would join on: what the team has now.
    const team = await teamPaidOf(ctx.app.db, ctx.app.catalog, instance, ctx.now());
    const productCode = team.productCode ?? FREE_PRODUCT;
    const plan = ctx.app.catalog.plans.find((p) => p.code === productCode);
    return json({
      code: invite.code,
      instanceName: instance.name,
      inviterName: inviter ? `${inviter.firstName} ${inviter.lastName}`.trim() : instance.name,
      // Anyone with the code reads this: the addressee recognises a masked address (item 13).
      email: invite.email === null ? null : maskEmail(invite.email),
      productCode,
      tier: plan?.tier ?? "business",
      accepted: invite.email !== null && invite.acceptedAt !== null,
    });
  });

  routes.api(api.acceptInvite, async (ctx, { user, query, params }) => {
    const { cancelSubscription } = query;
    const account = await accountOf(ctx, user);
    const { db } = ctx.app;
    const invite = await Invites.byCode(db, params.code);
    const instance = invite ? await Instances.byId(db, invite.instanceId) : null;
    if (!invite || !instance) return fail("invite_not_found");
    // Every reason is one the invitation page puts in words (domain/account/invites.ts).
    const refuse = (failureReason: InviteFailureReason) =>
      json({ success: false, failureReason, instanceName: instance.name });
    // An account its organisation manages (purchase order, pilot, promotion) is not the
    // person's to move into another team; its members get already_member or another workspace.
    if (account.managed && !account.isMember) return refuse("managed_account");
    // Invitations to an address are single use; open invitations (no address) are a team's link.
    if (
      invite.email !== null &&
      invite.acceptedAt !== null &&
      invite.acceptedBy !== account.user.id
    )
      return refuse("used");
    if (invite.email !== null && invite.email !== account.user.email) return refuse("wrong_email");
    // The invited address counts only once verified: anyone may type it as their own (issue 18,
    // item 13); joinTeam checks it again under the account's lock.
    if (invite.email !== null && !account.user.emailVerified) return refuse("email_not_verified");
    // A paying subscriber would pay twice: joining needs the subscription cancelled, which the
    // client asks for with cancelSubscription=true after telling the customer (teams.ts).
    const joined = await joinTeam(ctx, {
      userId: user.id,
      instanceId: instance.id,
      invite: { code: invite.code, email: invite.email, createdAt: invite.createdAt },
      cancelSubscription: cancelSubscription === "true",
    });
    if (!joined.ok) {
      if (joined.reason === "account_busy" || joined.reason === "not_authenticated") {
        return fail(joined.reason);
      }
      return refuse(joined.reason === "not_found" ? "used" : joined.reason);
    }
    return json({ success: true, failureReason: null, instanceName: instance.name });
  });

  // Telemetry limits count the client and, when signed in, the account (services/telemetry.ts).
  routes.api(api.instrumentation, async (ctx, { body }) => {
    const user = await ctx.user();
    await limitTelemetry(ctx, user);
    return record(ctx, {
      kind: "instrumentation",
      name: body.eventName,
      userId: user?.id ?? null,
      payload: body.properties ?? {},
    });
  });

  routes.api(api.hubspotEvent, async (ctx, { query, body, params }) => {
    const user = await ctx.user();
    await limitTelemetry(ctx, user);
    return record(ctx, {
      kind: "hubspot",
      name: params.id,
      userId: user?.id ?? null,
      payload: { requiredEvent: query.requiredEvent === "true", ...(body ?? {}) },
    });
  });

  routes.api(api.trackJs, async (ctx, { body }) => {
    const user = await ctx.user();
    await limitTelemetry(ctx, user);
    const message = typeof body.message === "string" ? body.message : "error report";
    return record(ctx, { kind: "trackjs", name: message, userId: user?.id ?? null, payload: body });
  });
}

/** Stores a telemetry event, or refuses it with 413 when it is over the size the policy keeps. */
async function record(ctx: Ctx, event: TelemetryEvent) {
  const recorded = await recordTelemetry(ctx.app.db, event, ctx.now());
  return recorded.ok
    ? json({ success: true as const })
    : fail("telemetry_too_large", recorded.maxEventBytes);
}
