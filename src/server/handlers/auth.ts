// Sessions and passwords: sign-up, sign-in, forgot password, change password, logout.
import { api } from "../../contract/index.ts";
import { isBlockedEmail } from "../../domain/account/email-rules.ts";
import { HUMAN_CHECK_FAILED, passwordValidations } from "../../domain/account/password.ts";
import { admitSignIn } from "../auth/sign-in-limits.ts";
import { isUniqueViolation } from "../db/db.ts";
import { Secrets } from "../db/secrets.ts";
import { Sessions } from "../db/sessions.ts";
import { freeSubscription, Subscriptions } from "../db/subscriptions.ts";
import { newUser, Users } from "../db/users.ts";
import { escapeHtml, fail, html, json, redirect } from "../http/reply.ts";
import type { Routes } from "../routing.ts";
import { isDemoAccount } from "../seed.ts";
import { loadAccount } from "../services/account.ts";
import { resetHash, sendEmailCode, sendResetLink } from "../services/emails.ts";
import { requestVisitorId, writeExperimentCookies } from "../services/experiments.ts";
import { endSession, startSession } from "../services/sessions.ts";
import { rateLimited } from "./helpers.ts";

export function authRoutes(routes: Routes): void {
  routes.api(api.signUp, async (ctx, { body }) => {
    const { db, catalog, mailer, passwords } = ctx.app;
    const email = body.email.trim().toLowerCase();
    if (isBlockedEmail(email, catalog.blockedEmailDomains)) return fail("blocked_domain");
    // Hashed before the address is looked up: a taken address costs the same work as a new one.
    // The taken address still answers 409, as the new account is signed in (decision 0011).
    const passwordHash = await passwords.hash(body.password);
    if (await Users.byEmail(db, email)) return fail("email_taken");
    const now = ctx.now();
    let userId: number;
    try {
      userId = await db.transaction(async (tx) => {
        const id = await Users.insert(
          tx,
          newUser({
            email,
            username: email,
            firstName: body.firstName,
            lastName: body.lastName,
            passwordHash,
            createdAt: now,
            activationRequired: true,
          }),
        );
        await Subscriptions.insert(tx, freeSubscription(id, now));
        const user = await Users.byId(tx, id);
        if (user) await sendEmailCode(tx, ctx.app, user, now);
        return id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return fail("email_taken");
      throw error;
    }
    mailer.kick();
    await startSession(ctx, userId);
    // The browser's visitor id becomes the account's: its price groups follow it (decision 0089).
    await requestVisitorId(ctx, userId);
    return json({ success: true, userId, activationRequired: true });
  });

  routes.api(api.signIn, async (ctx, { body }) => {
    const email = body.email.trim().toLowerCase();
    // Only failures count per account, and never against a client that has not been failing:
    // an attacker cannot lock the owner out (auth/sign-in-limits.ts).
    const permit = await admitSignIn(ctx.app.limiter, email, ctx.ip);
    if (!permit.ok) return rateLimited(permit.retryAfterSeconds);
    const user = await Users.byEmail(ctx.app.db, email);
    let ok: boolean;
    try {
      ok = user
        ? await ctx.app.passwords.verify(body.password, user.passwordHash)
        : await ctx.app.passwords.verifyDummy(body.password);
    } catch (error) {
      // Shed before the password was checked (auth/passwords.ts): not a failure to count.
      await permit.settle(true);
      throw error;
    }
    // The demo accounts' password is published: they sign in for a local request only.
    const allowed = ok && (ctx.isLocalRequest || !isDemoAccount(email));
    await permit.settle(Boolean(user && allowed));
    if (!user || !allowed) return fail("invalid_credentials");
    await startSession(ctx, user.id);
    // The account's visitor id goes into this browser (or the browser's onto an account without
    // one), so that its price groups are the same on every device (decision 0089).
    await requestVisitorId(ctx, user.id);
    const account = await loadAccount(ctx.app.db, ctx.app.catalog, user, ctx.now());
    writeExperimentCookies(ctx, account.experiments);
    return json({ success: true, userId: user.id });
  });

  routes.api(api.forgotPassword, async (ctx, { body }) => {
    const email = body.email.trim().toLowerCase();
    // The invisible human check of the request screen (issue 22): no answer, no e-mail. A script
    // without it spends its client's allowance (forgotPerIp, the route's limit), but not the
    // address's: counted against the address, it would let anyone hold back the owner's real
    // request (issue 33 item 10).
    const human = await ctx.app.humanCheck.verifyForgot({ email, answer: body.recaptchaResponse });
    if (!human) return json({ success: false, failedValidations: [HUMAN_CHECK_FAILED] });
    await ctx.limit("forgotPerEmail", email);
    const { db, mailer, log } = ctx.app;
    const now = ctx.now();
    // The answer goes out before the account is even looked up, so it is the same, and takes the
    // same time, for known and unknown addresses.
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => {
        const user = await Users.byEmail(db, email);
        if (!user) return;
        await db.transaction((tx) =>
          sendResetLink(tx, { ...ctx.app, publicBaseUrl: ctx.app.config.publicBaseUrl }, user, now),
        );
        mailer.kick();
      })
      .catch((error: unknown) => log.error("forgot password: sending the reset link failed", error))
      .finally(() => ctx.app.background.delete(task));
    ctx.app.background.add(task);
    return json({ success: true });
  });

  routes.api(api.changePassword, async (ctx, { body }) => {
    const failed = passwordValidations(body.newPassword, body.confirmNewPassword);
    if (failed.length > 0) return json({ success: false, failedValidations: failed });
    const { db, secret } = ctx.app;
    // The invisible human check (spec 2.7): checked before the link, so a script without it
    // learns nothing about which links are live.
    const human = await ctx.app.humanCheck.verifyReset({
      vc: body.vc,
      email: body.email,
      answer: body.recaptchaResponse,
    });
    if (!human) return json({ success: false, failedValidations: [HUMAN_CHECK_FAILED] });
    const now = ctx.now();
    const hash = resetHash(secret, body.vc);
    const stored = body.vc ? await Secrets.byHash(db, hash, "reset") : null;
    const expired = { success: false, failedValidations: [] };
    if (!stored || stored.usedAt !== null || stored.expiresAt <= now) return json(expired);
    const user = await Users.byId(db, stored.userId);
    if (!user || user.email !== body.email.trim().toLowerCase()) return json(expired);
    const passwordHash = await ctx.app.passwords.hash(body.newPassword);
    const changed = await db.transaction(async (tx) => {
      if (!(await Secrets.use(tx, hash, now))) return false;
      await Users.update(tx, user.id, { passwordHash });
      // A new password signs every session of the account out.
      await Sessions.deleteForUser(tx, user.id);
      return true;
    });
    return json(changed ? { success: true, failedValidations: [] } : expired);
  });

  // Logout (spec 2.3: /login?action=logout). GET changes nothing: it shows a one-button form that
  // POSTs to the same address, which ends the session.
  routes.raw({ method: "GET", path: "/login" }, async (ctx) => {
    if (ctx.url.searchParams.get("action") !== "logout") return { kind: "pass" };
    const action = `/login?${new URLSearchParams(ctx.url.searchParams)}`;
    return html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Log out</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.6rem 1.2rem}</style></head>
<body><h1>Log out</h1><p>Do you want to log out of your account on this browser?</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Log out</button></form>
<p><a href="/">Stay signed in</a></p></body></html>`,
    );
  });

  routes.raw({ method: "POST", path: "/login" }, async (ctx) => {
    if (ctx.url.searchParams.get("action") !== "logout") return fail("not_found");
    await endSession(ctx);
    return redirect("/sign-in", 303);
  });
}
