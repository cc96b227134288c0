// Shared pieces of the route modules.
import type { z } from "zod";
import { IDEMPOTENCY_HEADER } from "../../api/contract/common.ts";
import { apiError } from "../../domain/errors/api-errors.ts";
import type { Handler } from "../app.ts";
import type { Ctx } from "../context.ts";
import type { User } from "../db/users.ts";
import { HttpError, json } from "../http/reply.ts";
import { type Account, loadAccount } from "../services/account.ts";
import { fingerprint, type Outcome, validKey } from "../services/idempotency.ts";

export async function accountOf(ctx: Ctx, user?: User): Promise<Account> {
  const u = user ?? (await ctx.requireUser());
  return loadAccount(ctx.app.db, ctx.app.catalog, u, ctx.now(), ctx.sessionSubscription);
}

/** An Outcome that answers with an API error (stored under the key like any answer). */
export function errorOutcome(error: { status: number; body: unknown }): Outcome {
  return { status: error.status, body: error.body };
}

/**
 * A payment call: signed in, body validated, then run once per Idempotency-Key. Errors raised
 * while working (4xx) become the stored answer of the key, like any other answer.
 */
export function idempotent<S extends z.ZodType>(
  schema: S,
  work: (ctx: Ctx, user: User, body: z.output<S>, key: string) => Promise<Outcome>,
): Handler {
  return async (ctx) => {
    const user = await ctx.requireUser();
    const body = await ctx.body(schema);
    const key = ctx.req.headers[IDEMPOTENCY_HEADER.toLowerCase()];
    if (!validKey(typeof key === "string" ? key : undefined))
      throw new HttpError(apiError("idempotency_key_required"));
    const k = key as string;
    const print = fingerprint(ctx.method, ctx.path.replace(/\/$/, ""), body);
    const answer = await ctx.app.idempotency.run(user.id, k, print, async () => {
      try {
        return await work(ctx, user, body, k);
      } catch (error) {
        if (error instanceof HttpError && error.error.status < 500 && error.error.status !== 429) {
          return errorOutcome(error.error);
        }
        throw error;
      }
    });
    return json(
      answer.body,
      answer.status,
      answer.replayed ? { "Idempotent-Replayed": "true" } : undefined,
    );
  };
}
