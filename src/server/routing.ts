// The contract is the router (decision 0032). A handler is registered with its entry of the
// contract (src/contract/index.ts: the route table's method, path and flags, with its zod
// schemas) and receives what the entry promises, already checked:
//
//   1. `auth`: the signed-in user, or 401 not_authenticated;
//   2. `limit`: the rate limit of the entry (per client address, or per account), or 429;
//   3. the path parameters, the query and the body, parsed and validated with the entry's
//      schemas, or 400 invalid_request (413, 415 ... for bodies) — before the handler runs;
//   4. `idempotent`: the Idempotency-Key (400 without one), the work run once per key and its
//      answer stored; `accountLock`: the account's lock held around the work (409 account_busy),
//      the user and account read afresh under it;
//   5. the handler; its JSON answer is typed from the entry (its response, or an error code it
//      lists), and with response validation on (tests, local runs) checked against the schema.
//
// A handler has no other way to the body or the query: the request context offers none. So an
// endpoint that forgets to validate its input cannot be written, and a flag is written once, in
// the table. Routes outside the contract (pages of the server, sandbox tools) declare their input
// schemas the same way (`routes.raw`).
import type { z } from "zod";
import type { PathParamNames } from "../client/call-types.ts";
import type { Endpoint, ErrorsOf, Method } from "../contract/common.ts";
import { IDEMPOTENCY_HEADER, MAX_BODY_BYTES } from "../contract/constants.ts";
import type { RouteLimit } from "../contract/endpoints.ts";
import { apiError } from "../domain/errors/api-errors.ts";
import type { Ctx } from "./context.ts";
import { tooManyAttempts } from "./context.ts";
import type { User } from "./db/users.ts";
import { bodyWithin, parseBody, validate } from "./http/body.ts";
import { type ErrorReply, HttpError, type JsonReply, json, type Reply } from "./http/reply.ts";
import type { Account } from "./services/account.ts";
import { buysPlan, withAccountLock } from "./services/account-lock.ts";
import { type Exclusive, fingerprint, type Outcome, validKey } from "./services/idempotency.ts";

/** A handler may decline a request it does not own (GET /login without action=logout). */
export type Handled = Reply | { kind: "pass" };
/** The bytes of the request's body as Fastify read them (none for GET and HEAD). */
export type RawBody = Buffer | undefined;
/** What the app dispatches to: a bound route, given the body's bytes it alone may parse. */
export type Handler = (ctx: Ctx, raw: RawBody) => Promise<Handled>;

type Nothing = Record<never, never>;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a contract route's handler receives, every part checked by the router. */
export type Input<E extends Endpoint> = {
  /** The body, parsed with the entry's schema (undefined when the entry has none). */
  body: Out<E["body"]>;
  /** The query, parsed with the entry's schema (undefined when the entry has none). */
  query: Out<E["query"]>;
  /** The path parameters: parsed with the entry's schema, else each the segment matched. */
  params: E["params"] extends z.ZodType
    ? z.output<E["params"]>
    : Record<PathParamNames<E["path"]>, string>;
} & (E extends { auth: true } ? { user: User } : Nothing) &
  (E extends { idempotent: true } ? { key: string } : Nothing) &
  (E extends { accountLock: "always" } ? { account: Account } : Nothing) &
  (E extends { accountLock: "plan-change" } ? { account: Account | null } : Nothing);

/**
 * What the route of a contract entry may answer, checked when it compiles: the entry's response
 * (as its schema's input), for `acceptsBelow500` calls that answer too, or an error whose code
 * the entry lists. Errors thrown as HttpError escape the types; the reply writer checks their
 * codes at run time when responses are validated.
 */
export type ApiHandled<E extends Endpoint> =
  | JsonReply<z.input<E["response"]>>
  | (E extends { answerBelow500: infer B extends z.ZodType } ? JsonReply<z.input<B>> : never)
  /** An entry whose response is `z.undefined()` answers 204 with no body. */
  | (E["response"] extends z.ZodUndefined ? { kind: "empty"; status: 204 } : never)
  | ErrorReply<ErrorsOf<E>>;

/**
 * The handler of a contract entry. An idempotent call's handler is its work: it returns the
 * Outcome that is stored under the key (its answer, and what to commit with it).
 */
export type ApiHandler<E extends Endpoint> = (
  ctx: Ctx,
  input: Input<E>,
) => Promise<E extends { idempotent: true } ? Outcome : ApiHandled<E>>;

/** A route outside the contract: its path, and the schemas of what it reads. */
export type RawRoute = {
  method: Method;
  path: string;
  body?: z.ZodType;
  query?: z.ZodType;
};

export type RawInput<R extends RawRoute> = {
  body: Out<R["body"]>;
  query: Out<R["query"]>;
  params: Record<PathParamNames<R["path"]>, string>;
  /** The body's bytes unparsed (a signed webhook's), 413 past `limit`. */
  bytes(limit: number): Buffer;
};

export type Routes = {
  /** A route of the contract: input checked from the entry, answers typed from it. */
  api<E extends Endpoint>(endpoint: E, handler: ApiHandler<E>): void;
  /** A route outside the contract (pages of the server, sandbox tools), its input checked too. */
  raw<const R extends RawRoute>(
    route: R,
    handler: (ctx: Ctx, input: RawInput<R>) => Promise<Handled>,
  ): void;
};

/** The body (64 KB cap), parsed as JSON or a form, and validated. */
function bodyOf(ctx: Ctx, raw: RawBody, schema: z.ZodType | undefined): unknown {
  if (!schema) return undefined;
  const bytes = bodyWithin(raw, ctx.req.headers["content-length"], MAX_BODY_BYTES);
  return validate(schema, parseBody(bytes, ctx.req.headers["content-type"]), "body");
}

function queryOf(ctx: Ctx, schema: z.ZodType | undefined): unknown {
  if (!schema) return undefined;
  return validate(schema, Object.fromEntries(ctx.url.searchParams), "query");
}

/** Without a schema, each parameter is the decoded, non-empty segment the path matched. */
function paramsOf(ctx: Ctx, schema: z.ZodType | undefined): unknown {
  return schema ? validate(schema, ctx.params, "params") : ctx.params;
}

async function takeLimit(ctx: Ctx, limit: RouteLimit, user: User | undefined): Promise<void> {
  // The table's names say their key: ...PerIp the client's address, ...PerUser the account.
  const key = limit.endsWith("PerUser") ? String(user?.id) : ctx.ip;
  const decision = await ctx.app.limiter.take(limit, key);
  if (!decision.ok) throw tooManyAttempts(decision.retryAfterSeconds);
}

/**
 * Refusals that say "not now" rather than "no": answered, but never stored as the key's answer,
 * so a retry with the same key does the work once the obstacle is gone.
 */
const TRANSIENT_CODES: ReadonlySet<string> = new Set(["account_busy", "rate_limited"]);

function isTransient(error: HttpError): boolean {
  return error.error.status >= 500 || TRANSIENT_CODES.has(error.error.body.error_code);
}

/** An Outcome that answers with an API error (stored under the key like any answer). */
export function errorOutcome(error: { status: number; body: unknown }): Outcome {
  return { status: error.status, body: error.body };
}

type AnyInput = {
  body: unknown;
  query: unknown;
  params: unknown;
  user?: User;
  key?: string;
  account?: Account | null;
};
type AnyHandler = (ctx: Ctx, input: AnyInput) => Promise<unknown>;

/**
 * A payment call, run once per Idempotency-Key. Errors raised while working (4xx) become the
 * stored answer of the key, like any other answer.
 */
async function runIdempotent(
  ctx: Ctx,
  endpoint: Endpoint,
  input: AnyInput & { user: User },
  work: AnyHandler,
): Promise<Reply> {
  const header = ctx.req.headers[IDEMPOTENCY_HEADER.toLowerCase()];
  const key = typeof header === "string" ? header : undefined;
  if (!validKey(key)) throw new HttpError(apiError("idempotency_key_required"));
  const print = fingerprint(ctx.method, ctx.path.replace(/\/$/, ""), input.body);
  const sessionUser = input.user;
  // A call that changes the account holds its lock around the work and the commit of the order
  // and its stored answer. Only the request that claimed the key takes the lock (the idempotency
  // service's `exclusive`): a concurrent request with the same key joins the run or, with another
  // body, is refused, without touching the lock (issue 18, item 7). The holder is the key, so a
  // retry after a crash takes the lease over at once; the lock's own token makes sure only the
  // acquisition that took it releases it.
  let fresh: { user: User; account: Account } | null = null;
  const exclusive: Exclusive | undefined = locks(ctx, endpoint, input.body)
    ? (inner) =>
        withAccountLock(
          ctx,
          sessionUser.id,
          (locked) => {
            fresh = locked;
            return inner();
          },
          `key:${key}`,
        )
    : undefined;
  const answer = await ctx.app.idempotency.run(
    sessionUser.id,
    key,
    print,
    async () => {
      const locked = fresh as { user: User; account: Account } | null;
      const account = endpoint.accountLock ? { account: locked?.account ?? null } : {};
      try {
        return (await work(ctx, {
          ...input,
          ...account,
          user: locked?.user ?? sessionUser,
          key,
        })) as Outcome;
      } catch (error) {
        if (error instanceof HttpError && !isTransient(error)) return errorOutcome(error.error);
        throw error;
      }
    },
    exclusive,
  );
  // A stored answer is JSON read back from the database; the reply writer checks it against the
  // contract (body and error code) when responses are validated.
  return json(
    answer.body,
    answer.status,
    answer.replayed ? { "Idempotent-Replayed": "true" } : undefined,
  );
}

function locks(ctx: Ctx, endpoint: Endpoint, body: unknown): boolean {
  if (endpoint.accountLock === "always") return true;
  if (endpoint.accountLock === "plan-change") return buysPlan(ctx.app.catalog, body);
  return false;
}

/**
 * The handler the app dispatches to for a contract entry: flags, then input, then the handler.
 * Refuses, when registered, an entry without its schemas (an untyped caller's mistake).
 */
export function bindEndpoint<E extends Endpoint>(endpoint: E, handler: ApiHandler<E>): Handler {
  if (!endpoint.response || !Array.isArray(endpoint.errors)) {
    throw new Error(
      `${endpoint.method} ${endpoint.path}: register the contract's entry (with its schemas), not the bare route`,
    );
  }
  if ((endpoint.accountLock || endpoint.limit?.endsWith("PerUser")) && !endpoint.auth) {
    throw new Error(`${endpoint.method} ${endpoint.path}: its flags need \`auth\``);
  }
  const work = handler as unknown as AnyHandler;
  return async (ctx, raw) => {
    const user = endpoint.auth ? await ctx.requireUser() : undefined;
    if (endpoint.limit) await takeLimit(ctx, endpoint.limit, user);
    const params = paramsOf(ctx, endpoint.params);
    const query = queryOf(ctx, endpoint.query);
    const body = bodyOf(ctx, raw, endpoint.body);
    const input: AnyInput = { body, query, params };
    if (user) input.user = user;
    if (endpoint.idempotent && user) return runIdempotent(ctx, endpoint, { ...input, user }, work);
    if (endpoint.accountLock && user) {
      return withAccountLock(ctx, user.id, (locked) =>
        work(ctx, { ...input, ...locked }),
      ) as Promise<Handled>;
    }
    return work(ctx, input) as Promise<Handled>;
  };
}

/** The handler of a route outside the contract: its input checked the same way. */
export function bindRaw<R extends RawRoute>(
  route: R,
  handler: (ctx: Ctx, input: RawInput<R>) => Promise<Handled>,
): Handler {
  return async (ctx, raw) => {
    const params = paramsOf(ctx, undefined) as RawInput<R>["params"];
    const query = queryOf(ctx, route.query) as RawInput<R>["query"];
    const body = bodyOf(ctx, raw, route.body) as RawInput<R>["body"];
    const bytes = (limit: number) => bodyWithin(raw, ctx.req.headers["content-length"], limit);
    return handler(ctx, { body, query, params, bytes });
  };
}
