// The per-request context handlers receive, and the dependencies of the app. It offers no way to
// the request's body or query: a handler gets them parsed and validated from its route's schemas
// (routing.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { Catalog } from "../domain/catalog/catalog-schema.ts";
import { apiError } from "../domain/errors/api-errors.ts";
import type { HumanVerifier } from "./auth/human-check.ts";
import type { PasswordHasher } from "./auth/passwords.ts";
import { tokenHash } from "./auth/tokens.ts";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { Db, Queryable, TransactionOptions } from "./db/db.ts";
import { sessionRows } from "./db/session-cache.ts";
import type { SessionRows, User } from "./db/users.ts";
import { type Client, clientKey } from "./http/client-address.ts";
import { HttpError } from "./http/http-error.ts";
import type { RateLimiter, RateRuleName } from "./http/rate-limit.ts";
import type { Headers } from "./http/reply.ts";
import { isLocalRequest } from "./local-run.ts";
import type { Logger } from "./log.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { PaypalClient } from "./payments/paypal-client.ts";
import type { PaymentProvider } from "./payments/provider.ts";
import type { StaticHandler } from "./static-files.ts";

export type StoredAnswer = { status: number; body: unknown; replayed: boolean };

/** What a payment call's work gives: its answer, and what to commit with it. */
export type Outcome = {
  status: number;
  body: unknown;
  /**
   * Writes committed atomically with the stored answer (the order, the account change). They may
   * fill in fields of `body`, which is stored after they ran.
   */
  commit?: (tx: Queryable) => Promise<void>;
  /**
   * true: `commit` fills in nothing of `body`, so the key's answer is stored beside its writes,
   * issued with them (on PostgreSQL in their batch: a round trip fewer, decision 0074).
   */
  bodyFinal?: boolean;
  /** The isolation of that transaction (default serializable; see TransactionOptions). */
  isolation?: TransactionOptions["isolation"];
  /**
   * Work after that transaction committed and the account's lock is let go, before the answer
   * goes out (an order's invoice numbering pass, decision 0062). It must not throw: what
   * committed stays committed.
   */
  afterCommit?: () => Promise<void>;
  /**
   * false: answered but not kept as the key's answer (a payment still being confirmed, or
   * waiting for the customer's authentication): the same key asks again and gets the outcome.
   */
  store?: boolean;
};

/** Runs the claimed request's work while holding something (the account's lock). */
export type Exclusive = (run: () => Promise<StoredAnswer>) => Promise<StoredAnswer>;

/**
 * Runs a payment call once per Idempotency-Key (services/idempotency.ts implements it; declared
 * here so that the request context depends on nothing in services/, which depends on it).
 */
export interface Idempotency {
  run(
    userId: number,
    key: string,
    print: string,
    work: () => Promise<Outcome>,
    exclusive?: Exclusive,
  ): Promise<StoredAnswer>;
}

export type { StaticHandler } from "./static-files.ts";

export type AppDeps = {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  catalog: Catalog;
  payments: PaymentProvider;
  /** PayPal's Subscriptions API (PAYPAL_* set), else null: the sandbox's stand-in, or no PayPal. */
  paypal: PaypalClient | null;
  mailer: Mailer;
  limiter: RateLimiter;
  idempotency: Idempotency;
  /** Key of the HMACs that store session ids, reset tokens and e-mail codes. */
  secret: Buffer;
  /** Password hashing and checks (scrypt). */
  passwords: PasswordHasher;
  /** The reset page's human check (the sandbox's proof of work unless a provider is passed). */
  humanCheck: HumanVerifier;
  /**
   * Check every 2xx JSON answer against the contract, and freeze the session lookups kept between
   * requests (db/session-cache.ts) so that a handler changing one fails (tests turn it on).
   */
  validateResponses: boolean;
  /** Work started after an answer went out (e-mails); close() waits for it. */
  background: Set<Promise<unknown>>;
  staticHandler: StaticHandler | null;
  notFound: ((req: IncomingMessage, res: ServerResponse) => void) | null;
};

export const SESSION_COOKIE = "sid";
export const SESSION_DAYS = 30;

export class Ctx {
  readonly app: AppDeps;
  readonly req: IncomingMessage;
  readonly url: URL;
  readonly path: string;
  params: Record<string, string> = {};
  /**
   * Who is asking, as rate limits key it: the client's address (behind trusted proxies, the one
   * they forwarded; http/client-address.ts), an IPv6 client by its /64.
   */
  readonly ip: string;
  /** The client reached us over https (directly, or as a trusted proxy reports). */
  readonly secure: boolean;
  readonly cookies: Record<string, string | undefined>;
  private local: boolean | undefined;
  /** Headers added to whatever answer the handler gives (Set-Cookie, ...). */
  readonly responseHeaders: Headers = {};
  private sessionUser: Promise<User | null> | null = null;
  /** What was read with the session user (its subscription, its coupons), for loadAccount. */
  sessionRows: SessionRows | null = null;

  /** `cookies`: as @fastify/cookie parsed them (app.ts). */
  constructor(
    app: AppDeps,
    req: IncomingMessage,
    url: URL,
    client: Client,
    cookies: Record<string, string | undefined>,
  ) {
    this.app = app;
    this.req = req;
    this.url = url;
    this.path = url.pathname;
    this.ip = clientKey(client.address);
    this.secure =
      app.config.publicBaseUrl.startsWith("https:") ||
      Boolean((req.socket as TLSSocket).encrypted) ||
      client.forwardedProto === "https";
    this.cookies = cookies;
  }

  /**
   * The request may use a local run's conveniences (/dev/, the sandbox card form, demo sign-ins):
   * a local run, asked directly from this machine, not through a proxy (local-run.ts). Worked
   * out on the first ask: few requests ask, and every request would pay for it.
   */
  get isLocalRequest(): boolean {
    this.local ??= isLocalRequest(this.app.config.local, this.req);
    return this.local;
  }

  get method(): string {
    return this.req.method ?? "GET";
  }

  now(): number {
    return this.app.clock.now();
  }

  sessionHash(): string | null {
    const sid = this.cookies[SESSION_COOKIE];
    return sid ? tokenHash(sid) : null;
  }

  /** The signed-in user, or null. */
  user(): Promise<User | null> {
    this.sessionUser ??= (async () => {
      const hash = this.sessionHash();
      const found = hash
        ? await sessionRows(this.app.db, hash, this.now(), { freeze: this.app.validateResponses })
        : null;
      this.sessionRows = found;
      return found?.user ?? null;
    })();
    return this.sessionUser;
  }

  async requireUser(): Promise<User> {
    const user = await this.user();
    if (!user) throw new HttpError(apiError("not_authenticated"));
    return user;
  }

  /**
   * Refuses the request with 429 and Retry-After when the bucket is empty: `await
   * ctx.limit(rule, key)`. The buckets may be in the shared database (several servers), hence
   * async. (It replaced the synchronous `rateLimit`, renamed so that a call without await cannot
   * compile unnoticed.) A call that checks passwords the way sign-in does takes
   * `await admitSignIn(ctx.app.limiter, account, ctx.ip)` too (auth/sign-in-limits.ts).
   */
  async limit(rule: RateRuleName, key: string): Promise<void> {
    const decision = await this.app.limiter.take(rule, key);
    if (!decision.ok) throw tooManyAttempts(decision.retryAfterSeconds);
  }

  addHeader(name: string, value: string): void {
    const existing = this.responseHeaders[name];
    if (existing === undefined) this.responseHeaders[name] = value;
    else this.responseHeaders[name] = [...(Array.isArray(existing) ? existing : [existing]), value];
  }
}

/** The 429 answer, with Retry-After. */
export function tooManyAttempts(retryAfterSeconds: number): HttpError {
  return new HttpError(apiError("rate_limited", retryAfterSeconds), {
    "Retry-After": String(retryAfterSeconds),
  });
}
