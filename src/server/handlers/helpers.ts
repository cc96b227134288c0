// Shared pieces of the route modules.
import { apiError } from "../../domain/errors/api-errors.ts";
import type { Ctx } from "../context.ts";
import type { User } from "../db/users.ts";
import { fail } from "../http/reply.ts";
import { type Account, loadAccount } from "../services/account.ts";

/**
 * The account of the signed-in user, or of `user`. The subscription, coupons and billing details
 * read with the session (one statement, one snapshot: db/users.ts) are used when `user` is the
 * very user read with them; a user read afresh (under an account lock, where the session's copy
 * may be stale) has its account read afresh too.
 */
export async function accountOf(ctx: Ctx, user?: User): Promise<Account> {
  const u = user ?? (await ctx.requireUser());
  const read = ctx.sessionRows?.user === u ? ctx.sessionRows : null;
  return loadAccount(ctx.app.db, ctx.app.catalog, u, ctx.now(), read);
}

/** A limit of the handler's own (keyed on the body, or a renderer's capacity): 429, Retry-After. */
export function rateLimited(retryAfterSeconds: number) {
  return fail(apiError("rate_limited", retryAfterSeconds), {
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}
