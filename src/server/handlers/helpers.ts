// Shared pieces of the route modules.
import { apiError } from "../../domain/errors/api-errors.ts";
import { runningExperiments } from "../../domain/experiments/assignment.ts";
import type { Ctx } from "../context.ts";
import { freeSubscription } from "../db/subscriptions.ts";
import type { User } from "../db/users.ts";
import { newUser } from "../db/users.ts";
import { fail } from "../http/reply.ts";
import { type Account, loadAccount } from "../services/account.ts";
import { expose, requestVisitorId, writeExperimentCookies } from "../services/experiments.ts";

/**
 * The account of the signed-in user, or of `user`. The subscription, coupons and billing details
 * read with the session (one statement, one snapshot: db/users.ts) are used when `user` is the
 * very user read with them; a user read afresh (under an account lock, where the session's copy
 * may be stale) has its account read afresh too.
 */
export async function accountOf(ctx: Ctx, user?: User): Promise<Account> {
  const u = user ?? (await ctx.requireUser());
  const read = ctx.sessionRows?.user === u ? ctx.sessionRows : null;
  const account = await loadAccount(ctx.app.db, ctx.app.catalog, u, ctx.now(), read);
  // A signed-in answer tells the static pages the account's groups (decision 0089).
  writeExperimentCookies(ctx, account.experiments);
  return account;
}

/** A visitor who is not signed in is priced as a new free account in the default region. */
function visitorUser(): User {
  return {
    id: 0,
    ...newUser({
      email: "",
      username: "",
      firstName: "",
      lastName: "",
      passwordHash: "",
      createdAt: 0,
    }),
  };
}

/**
 * The account (or the visitor) a pricing request prices these products for, in its price
 * experiments' groups (decision 0089): the request's visitor id (the account's; else the cookie's,
 * else a new one, in a cookie), the exposure of each covered plan recorded (the recorded group
 * wins), and the `vid` and `xp` cookies written.
 */
export async function pricedAccountOf(
  ctx: Ctx,
  productCodes: (account: Account) => readonly string[],
): Promise<Account> {
  const { db, catalog } = ctx.app;
  const now = ctx.now();
  const running = runningExperiments(catalog, now).length > 0;
  const user = await ctx.user();
  let account: Account;
  if (user) {
    // An account signed in before it had a visitor id takes the cookie's (or a new one) now; the
    // id read here is the one the account's experiments follow (not read a second time).
    const visitorId = running ? await requestVisitorId(ctx, user.id) : undefined;
    account = await loadAccount(db, catalog, user, now, ctx.sessionRows, visitorId);
  } else {
    const visitorId = running ? await requestVisitorId(ctx, null) : null;
    const visitor = await loadAccount(db, catalog, visitorUser(), now, null, visitorId);
    account = { ...visitor, sub: freeSubscription(0, now) };
  }
  if (running) {
    account = await expose(db, account, productCodes(account));
    writeExperimentCookies(ctx, account.experiments);
  }
  return account;
}

/** A limit of the handler's own (keyed on the body, or a renderer's capacity): 429, Retry-After. */
export function rateLimited(retryAfterSeconds: number) {
  return fail(apiError("rate_limited", retryAfterSeconds), {
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}
