// Shared pieces of the route modules.
import type { Ctx } from "../context.ts";
import type { User } from "../db/users.ts";
import { type Account, loadAccount } from "../services/account.ts";

/**
 * The account of the signed-in user, or of `user` read afresh (inside an account lock the copy
 * read with the session may be stale, so it is used only when no user is passed).
 */
export async function accountOf(ctx: Ctx, user?: User): Promise<Account> {
  if (user) return loadAccount(ctx.app.db, ctx.app.catalog, user, ctx.now());
  const u = await ctx.requireUser();
  return loadAccount(ctx.app.db, ctx.app.catalog, u, ctx.now(), ctx.sessionRows);
}
