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
import { type Exclusive, fingerprint, type Outcome, validKey } from "../services/idempotency.ts";

/**
 * The account of the signed-in user, or of `user` read afresh (inside an account lock the copy
 * read with the session may be stale, so it is used only when no user is passed).
 */
export async function accountOf(ctx: Ctx, user?: User): Promise<Account> {
  if (user) return loadAccount(ctx.app.db, ctx.app.catalog, user, ctx.now());
  const u = await ctx.requireUser();
  return loadAccount(ctx.app.db, ctx.app.catalog, u, ctx.now(), ctx.sessionRows);
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
    // A call that changes the account holds its lock around the work and the commit of the
    // order and its stored answer. Only the request that claimed the key takes the lock (the
    // idempotency service's `exclusive`): a concurrent request with the same key joins the run or,
    // with another body, is refused, without touching the lock (issue 18, item 7). The holder is
    // the key, so a retry after a crash takes the lease over at once; the lock's own token makes
    // sure only the acquisition that took it releases it.
    let fresh: { user: User; account: Account } | null = null;
    const exclusive: Exclusive | undefined = options.lockAccount?.(ctx, body)
      ? (inner) =>
          withAccountLock(
            ctx,
            sessionUser.id,
            (locked) => {
              fresh = locked;
              return inner();
            },
            `key:${k}`,
          )
      : undefined;
    const answer = await ctx.app.idempotency.run(
      sessionUser.id,
      k,
      print,
      async () => {
        const locked = fresh as { user: User; account: Account } | null;
        try {
          return await work(ctx, locked?.user ?? sessionUser, body, k, locked?.account ?? null);
        } catch (error) {
          if (error instanceof HttpError && !isTransient(error)) return errorOutcome(error.error);
          throw error;
        }
      },
      exclusive,
    );
    // A stored answer is JSON read back from the database, so its type is not known here; the
    // reply writer checks it against the contract (body and error code) when tests run.
    return json(
      answer.body as ApiHandled<E>["body"],
      answer.status,
      answer.replayed ? { "Idempotent-Replayed": "true" } : undefined,
    ) as ApiHandled<E>;
  };
}
