// The user, the session status, location, attributes, licence, instance info, account changes.
import { api, SETTABLE_ATTRIBUTES } from "../../contract/index.ts";
import { isBlockedEmail, teacherEmailValid } from "../../domain/account/email-rules.ts";
import { teamName } from "../../domain/account/team-name.ts";
import { FREE_PRODUCT } from "../../domain/account/tier.ts";
import { apiError } from "../../domain/errors/api-errors.ts";
import { planPrice } from "../../domain/pricing/index.ts";
import { admitSignIn } from "../auth/sign-in-limits.ts";
import type { Ctx } from "../context.ts";
import { isUniqueViolation } from "../db/db.ts";
import { Instances } from "../db/instances.ts";
import { Events } from "../db/outbox.ts";
import { Secrets } from "../db/secrets.ts";
import { Users } from "../db/users.ts";
import { fail, json } from "../http/reply.ts";
import { ownOrigins } from "../http/security.ts";
import type { Routes } from "../routing.ts";
import { convertToFree, disbandInstance } from "../services/account-moves.ts";
import { confirmEmailChange, requestEmailChange } from "../services/email-change.ts";
import { codeHash, EMAIL_CODE_MAX_ATTEMPTS, sendEmailCode } from "../services/emails.ts";
import { isGdprCountry, locationOf } from "../services/location.ts";
import { endSession } from "../services/sessions.ts";
import {
  anyStopped,
  queueBillingStopped,
  recordBillingStopped,
  stopRecurringBilling,
} from "../services/stop-billing.ts";
import { leaveTeam } from "../services/teams.ts";
import { contextView, priceSetOf, userInfoView } from "../services/views.ts";
import { accountOf, rateLimited } from "./helpers.ts";

const INSTANCE_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]{1,62}$/;

/** The hub origins the checkout may talk to (HUB_ORIGINS, plus its own origins in a local run). */
function hubOriginsFor(ctx: Ctx): string[] {
  const { config } = ctx.app;
  const own = config.local ? [...ownOrigins(config, ctx.req.socket.localPort)] : [];
  return [...new Set([...config.hubOrigins, ...own])];
}

export function userRoutes(routes: Routes): void {
  routes.api(api.userInfo, async (ctx) => {
    const user = await ctx.user();
    if (!user) return json({ success: false, ...apiError("not_authenticated").body }, 401);
    const { config, catalog } = ctx.app;
    return json(
      userInfoView(await accountOf(ctx, user), config.deploymentEnv, catalog.schoolDistricts),
    );
  });

  // The query only defeats caches (spec 7: v and _); checked like any other.
  routes.api(api.userContext, async (ctx, { user }) => {
    return json(contextView(await accountOf(ctx, user), ctx.app.catalog));
  });

  routes.api(api.sessionStatus, async (ctx) => {
    const user = await ctx.user();
    const location = locationOf(user);
    return json({
      isAuth: user !== null,
      userId: user?.id ?? null,
      eu: isGdprCountry(location.countryCode),
      countryCode: location.countryCode,
      stateCode: location.stateCode,
      activationRequired: user?.activationRequired ?? false,
      deploymentEnv: ctx.app.config.deploymentEnv,
      hubOrigins: hubOriginsFor(ctx),
    });
  });

  routes.api(api.location, async (_ctx, { user }) => json(locationOf(user)));

  routes.api(api.setAttribute, async (ctx, { user, query }) => {
    const { key, value } = query;
    if (!(SETTABLE_ATTRIBUTES as readonly string[]).includes(key))
      return fail("unknown_attribute", key);
    // Merged with the properties read inside the transaction, not the session's copy: two
    // attributes set at once (the segmentation steps send two) must both be kept.
    // A team's name to be follows the team-name rule like every stored team name (item 15).
    const stored = key === "desiredInstanceName" ? teamName(value) : value;
    await ctx.app.db.transaction(async (tx) => {
      const fresh = await Users.byId(tx, user.id);
      if (!fresh) return;
      await Users.update(tx, user.id, { properties: { ...fresh.properties, [key]: stored } });
    });
    return json({ success: true });
  });

  routes.api(api.enterpriseLicense, async (ctx, { user }) => {
    const account = await accountOf(ctx, user);
    const { instance } = account;
    if (!instance) return fail("not_enterprise");
    // What the team has now (domain entitlements): a team whose plan ended licenses nothing.
    const productCode = account.team?.productCode ?? null;
    const seats = account.team?.seats ?? 0;
    const plan = ctx.app.catalog.plans.find((p) => p.code === productCode);
    const seatPrice = plan
      ? planPrice(plan, priceSetOf(ctx.app.catalog, account, plan.code)).seatPrice
      : -1;
    return json({
      hasLicense:
        productCode !== null && (account.isOwner || account.entitlements.source === "team"),
      licensePricingStructure: instance.licensePricingStructure,
      instanceId: instance.id,
      instanceName: instance.name,
      productCode: productCode ?? FREE_PRODUCT,
      seatPrice,
      currentSeats: seats,
      usedSeats: account.usedSeats,
      maxSeats: seats,
      isEnterpriseAdmin: account.isOwner,
    });
  });

  routes.api(api.instanceInfo, async (ctx, { query }) => {
    if (query.method !== "getInstanceInfo") return fail("unknown_method", query.method);
    const name = (query.instanceName ?? "").trim();
    if (!name) return fail("invalid_request", "instanceName is required");
    const existing = await Instances.byName(ctx.app.db, name);
    return json({
      success: true,
      instanceName: name,
      exists: existing !== null,
      available: existing === null && INSTANCE_NAME.test(name),
    });
  });

  routes.api(api.activateUser, async (ctx, { user }) => {
    if (!user.emailVerified) return fail("email_not_verified");
    await ctx.app.db.transaction((tx) => Users.update(tx, user.id, { activationRequired: false }));
    return json({ success: true });
  });

  // Limited like sign-in (issue 18, item 12): it may check a password and say an address is taken.
  routes.api(api.editUser, async (ctx, { user, body }) => {
    const { db, catalog, mailer, passwords, limiter } = ctx.app;
    const email = body.email.trim().toLowerCase();
    // Spec 6: an account signed in through single sign-on keeps the address and username its
    // organisation gave it (canEditCredentials false); names may still change.
    if (user.ssoType !== null && (email !== user.email || body.username !== user.username))
      return fail("credentials_managed");
    const changesEmail = email !== user.email;
    if (changesEmail) {
      // The current password first, counted as sign-in failures are: a stolen session alone
      // cannot move the account, nor learn which addresses have accounts, nor mail codes.
      if (!body.currentPassword) return fail("current_password_required");
      const permit = await admitSignIn(limiter, user.email, ctx.ip);
      if (!permit.ok) return rateLimited(permit.retryAfterSeconds);
      let ok: boolean;
      try {
        ok = await passwords.verify(body.currentPassword, user.passwordHash);
      } catch (error) {
        // Shed before the password was checked (auth/passwords.ts): not a failure to count.
        await permit.settle(true);
        throw error;
      }
      await permit.settle(ok);
      if (!ok) return fail("wrong_password");
      // No more than sign-up says, to someone who knows the password (decision 0011).
      if (isBlockedEmail(email, catalog.blockedEmailDomains)) return fail("blocked_domain");
      if (await Users.byEmail(db, email)) return fail("email_taken");
    }
    if (body.username !== user.username) {
      const other = await Users.byUsername(db, body.username);
      if (other && other.id !== user.id) return fail("username_taken");
    }
    const now = ctx.now();
    try {
      await db.transaction(async (tx) => {
        await Users.update(tx, user.id, {
          username: body.username,
          firstName: body.firstName,
          lastName: body.lastName,
        });
        // The address itself changes only when the code sent to it is entered.
        if (changesEmail) {
          await requestEmailChange(tx, ctx.app, user, {
            email,
            keepSession: ctx.sessionHash(),
            now,
          });
        }
      });
    } catch (error) {
      // Someone took the username between the check above and the write.
      if (isUniqueViolation(error)) return fail("username_taken");
      throw error;
    }
    if (changesEmail) mailer.kick();
    return json(changesEmail ? { success: true, pendingEmail: email } : { success: true });
  });

  // Cancel trial (spec 7: DELETE /api/4/user/ {forgetMe}). forgetMe also deletes the account.
  // Billing stops at every provider first; if one cannot be reached nothing changes here.
  routes.api(api.deleteUser, async (ctx, { body, account }) => {
    if (!account.isTrial && !body.forgetMe) return fail("not_on_trial");
    const billing = await stopRecurringBilling(
      ctx.app,
      account.user,
      body.forgetMe ? "account deleted" : "trial cancelled",
    );
    if (!billing.ok) return fail("billing_not_stopped");
    const now = ctx.now();
    await ctx.app.db.transaction(async (tx) => {
      const stopped = { stopped: billing.stopped, deleted: body.forgetMe, now };
      await recordBillingStopped(tx, account.user, stopped);
      if (anyStopped(billing.stopped))
        await queueBillingStopped(tx, ctx.app, account.user, stopped);
      await Events.insert(tx, {
        kind: "cancellation",
        name: "cancel_trial",
        userId: account.user.id,
        payload: body,
        now,
      });
      if (body.forgetMe) {
        if (account.isOwner && account.instance)
          await disbandInstance(tx, account.instance, { deleteMembers: false, now });
        await Users.delete(tx, account.user.id);
      } else {
        await convertToFree(tx, account, now);
      }
    });
    if (anyStopped(billing.stopped)) ctx.app.mailer.kick();
    if (body.forgetMe) await endSession(ctx);
    return json({ success: true });
  });

  routes.api(api.generateEmailCode, async (ctx, { user }) => {
    await ctx.app.db.transaction((tx) => sendEmailCode(tx, ctx.app, user, ctx.now()));
    ctx.app.mailer.kick();
    return json({ success: true });
  });

  routes.api(api.verifyEmailCode, async (ctx, { user, body }) => {
    const { code } = body;
    const now = ctx.now();
    const hash = codeHash(ctx.app.secret, user.id, code);
    const ok = await ctx.app.db.transaction(async (tx) => {
      // A pending change of address is confirmed by the code sent to the new address.
      const change = await confirmEmailChange(tx, ctx.app.secret, user.id, code, now);
      if (change !== "none") return change === "changed";
      const active = await Secrets.activeFor(tx, user.id, "email_code", now);
      if (!active) return false;
      if (active.hash !== hash) {
        await Secrets.countAttempt(tx, active.hash);
        if (active.attempts + 1 >= EMAIL_CODE_MAX_ATTEMPTS) await Secrets.use(tx, active.hash, now);
        return false;
      }
      if (!(await Secrets.use(tx, hash, now))) return false;
      await Users.update(tx, user.id, { emailVerified: true });
      return true;
    });
    return ok ? json({ success: true }) : fail("invalid_code");
  });

  routes.api(api.validateTeacher, async (ctx, { user }) => {
    const extraDomains = ctx.app.catalog.schoolDistricts.flatMap((d) => d.emailDomains);
    return json({
      success: teacherEmailValid({
        email: user.email,
        emailVerified: user.emailVerified,
        extraDomains,
      }),
    });
  });

  // Convert to free (spec 7: POST /api/4/instance/disband). The owner of a team workspace
  // dissolves it; any other self-managed account just goes back to the free plan.
  routes.api(api.disbandInstance, async (ctx, { body, account }) => {
    if (account.isMember) return fail("not_instance_owner");
    if (account.managed) return fail("managed_account");
    // As a deletion: billing stops at every provider first, or nothing changes.
    const billing = await stopRecurringBilling(
      ctx.app,
      account.user,
      body.deleteOwner ? "account deleted" : "converted to free",
    );
    if (!billing.ok) return fail("billing_not_stopped");
    const now = ctx.now();
    await ctx.app.db.transaction(async (tx) => {
      const stopped = { stopped: billing.stopped, deleted: body.deleteOwner, now };
      await recordBillingStopped(tx, account.user, stopped);
      if (anyStopped(billing.stopped))
        await queueBillingStopped(tx, ctx.app, account.user, stopped);
      await Events.insert(tx, {
        kind: "cancellation",
        name: "convert_to_free",
        userId: account.user.id,
        payload: body,
        now,
      });
      if (account.instance)
        await disbandInstance(tx, account.instance, { deleteMembers: body.deleteMembers, now });
      if (body.deleteOwner) {
        await Users.delete(tx, account.user.id);
      } else {
        await convertToFree(tx, account, now);
      }
    });
    if (anyStopped(billing.stopped)) ctx.app.mailer.kick();
    if (body.deleteOwner) await endSession(ctx);
    return json({ success: true, productCode: FREE_PRODUCT });
  });

  routes.api(api.leaveInstance, async (ctx, { params, account }) => {
    const id = Number(params.id);
    if (!account.instance || account.instance.id !== id) return fail("instance_not_found");
    if (account.isOwner) return fail("owner_cannot_leave");
    await ctx.app.db.transaction((tx) => leaveTeam(tx, account.user.id));
    return json({ success: true, productCode: account.sub.productCode });
  });
}
