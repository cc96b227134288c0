// Shared pieces of the route modules.
import type { z } from "zod";
import { type Endpoint, IDEMPOTENCY_HEADER } from "../../api/contract/common.ts";
import { apiError } from "../../domain/errors/api-errors.ts";
import type { ApiHandled, ApiHandler } from "../app.ts";
import type { Ctx } from "../context.ts";
import type { User } from "../db/users.ts";
import { HttpError, json } from "../http/reply.ts";
import { type Account, loadAccount } from "../services/account.ts";
import { withAccountLock } from "../services/account-lock.ts";
import { fingerprint, type Outcome, validKey } from "../services/idempotency.ts";

/**
 * The account of the signed-in user, or of `user` read afresh (inside an account lock the copy
 * read with the session may be stale, so it is used only when no user is passed).
 */
export async function accountOf(ctx: Ctx, user?: User): Promise<Account> {
  if (user) return loadAccount(ctx.app.db, ctx.app.catalog, user, ctx.now());
  const u = await ctx.requireUser();
  return loadAccount(ctx.app.db, ctx.app.catalog, u, ctx.now(), ctx.sessionSubscription);
}

/** An Outcome that answers with an API error (stored under the key like any answer). */
export function errorOutcome(error: { status: number; body: unknown }): Outcome {
  return { status: error.status, body: error.body };
}

/**
 * Refusals that say "not now" rather than "no": answered, but never stored as the key's answer,
 * so a retry with the same key does the work once the obstacle is gone.
 */
const TRANSIENT_CODES: ReadonlySet<string> = new Set(["account_busy", "rate_limited"]);

function isTransient(error: HttpError): boolean {
  return error.error.status >= 500 || TRANSIENT_CODES.has(error.error.body.error_code);
}

/** A contract entry with a body. */
type WithBody = Endpoint & { body: z.ZodType };

/**
 * A payment call: signed in, body validated with the endpoint's schema, then run once per
 * Idempotency-Key. Errors raised while working (4xx) become the stored answer of the key, like
 * any other answer.
 */
export function idempotent<E extends WithBody>(
  endpoint: E,
  /** `account` is the account read under the lock (lockAccount), else null: read it yourself. */
  work: (
    ctx: Ctx,
    user: User,
    body: z.output<E["body"]>,
    key: string,
    account: Account | null,
  ) => Promise<Outcome>,
  options: {
    /**
     * Whether this request changes the account's subscription (a plan purchase, a trial), so
     * that it must hold the account's lock. One-off purchases (single exports) are priced apart
     * from the account's state and may run side by side.
     */
    lockAccount?: (ctx: Ctx, body: z.output<E["body"]>) => boolean;
  } = {},
): ApiHandler<E> {
  return async (ctx) => {
    const sessionUser = await ctx.requireUser();
    const body = (await ctx.body(endpoint.body)) as z.output<E["body"]>;
    const key = ctx.req.headers[IDEMPOTENCY_HEADER.toLowerCase()];
    if (!validKey(typeof key === "string" ? key : undefined))
      throw new HttpError(apiError("idempotency_key_required"));
    const k = key as string;
    const print = fingerprint(ctx.method, ctx.path.replace(/\/$/, ""), body);
    const run = (user: User, account: Account | null) =>
      ctx.app.idempotency.run(user.id, k, print, async () => {
        try {
          return await work(ctx, user, body, k, account);
        } catch (error) {
          if (error instanceof HttpError && !isTransient(error)) return errorOutcome(error.error);
          throw error;
        }
      });
    // A call that changes the account holds its lock around the whole keyed run, so the lock is
    // released only after the order and the stored answer are committed. The holder is the key:
    // a concurrent retry of the same key shares the run (the idempotency service joins it), and a
    // retry after a crash takes the lease over at once.
    const answer = options.lockAccount?.(ctx, body)
      ? await withAccountLock(
          ctx,
          sessionUser.id,
          ({ user, account }) => run(user, account),
          `key:${k}`,
        )
      : await run(sessionUser, null);
    // A stored answer is JSON read back from the database, so its type is not known here; the
    // reply writer checks it against the contract (body and error code) when tests run.
    return json(
      answer.body as ApiHandled<E>["body"],
      answer.status,
      answer.replayed ? { "Idempotent-Replayed": "true" } : undefined,
    ) as ApiHandled<E>;
  };
}
