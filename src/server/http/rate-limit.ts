// Token-bucket rate limits. One server (SQLite) keeps its buckets in memory; servers on one
// PostgreSQL database (DATABASE_URL) keep them in its rate_limits table, so that N servers allow
// one budget, not N (docs/decisions/0028-shared-rate-limits.md). Every change of a bucket is one
// atomic statement (refill, then take or give), so concurrent requests on any server count
// exactly. Time comes from the clock.

import type { RouteLimit } from "../../contract/endpoints.ts";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/db.ts";

export type RateRule = { limit: number; windowMs: number };

export const RATE_RULES = {
  /** Every sign-in attempt of one client, whatever the account. */
  signInPerIp: { limit: 20, windowMs: 60_000 },
  /** Failed sign-ins of one client on one account (auth/sign-in-limits.ts). */
  signInFailuresPerAccountClient: { limit: 5, windowMs: 5 * 60_000 },
  /** Failed sign-ins on one account from every client (auth/sign-in-limits.ts). */
  signInFailuresPerAccount: { limit: 20, windowMs: 15 * 60_000 },
  signUpPerIp: { limit: 10, windowMs: 60_000 },
  forgotPerIp: { limit: 5, windowMs: 60_000 },
  forgotPerEmail: { limit: 3, windowMs: 15 * 60_000 },
  changePasswordPerIp: { limit: 10, windowMs: 60_000 },
  /**
   * Edit details (PUT /api/4/user), like sign-in: it checks a password when the address changes
   * and answers whether an address is taken (issue 18, item 12). Wrong passwords also count as
   * sign-in failures on the account (auth/sign-in-limits.ts).
   */
  editUserPerIp: { limit: 20, windowMs: 60_000 },
  emailCodeVerifyPerUser: { limit: 10, windowMs: 10 * 60_000 },
  emailCodeGeneratePerUser: { limit: 3, windowMs: 60_000 },
  /**
   * Saving business details with `reissue` (handlers/invoices.ts): each re-issue adds a credit
   * note and an invoice to the gapless series, so an account gets a few a day (a typo corrected,
   * then corrected again), not a flood (issue 33 item 12).
   */
  reissuePerUser: { limit: 5, windowMs: 24 * 3_600_000 },
  couponPerIp: { limit: 20, windowMs: 60_000 },
  /**
   * Looking up or using invitation codes from one client. Codes made by the server are 96-bit,
   * but a team's open link may carry a short or guessable code (`demo-invite`), and a lookup
   * names the team and its inviter: without a limit, a client could enumerate them.
   */
  invitePerIp: { limit: 30, windowMs: 60_000 },
  // Analytics and error reports (services/telemetry.ts): one budget across the three calls. Per
  // address it is generous (a school's classroom shares one address); per account it is what one
  // busy checkout sends (its error reporter alone is held to 5, then 1 per 5 s, by spec 8).
  /**
   * Provider webhooks from one address (Stripe sends from a few addresses, in bursts when it
   * retries a backlog): bounded so that a flood of unsigned posts costs little.
   */
  webhookPerIp: { limit: 600, windowMs: 60_000 },
  /**
   * Quote PDFs (/orders/quote.pdf) from one address: unauthenticated and costly to render (a
   * school's office asks for a few; their work is bounded per server too, invoices/quote-pdfs.ts).
   */
  quotePdfPerIp: { limit: 10, windowMs: 60_000 },
  telemetryPerIp: { limit: 120, windowMs: 60_000 },
  /** The static pages' exposure beacon (issue 36): about one per page view. */
  exposuresPerIp: { limit: 120, windowMs: 60_000 },
  telemetryPerAccount: { limit: 60, windowMs: 60_000 },
} as const satisfies Record<string, RateRule>;

export type RateRuleName = keyof typeof RATE_RULES;

// Every limit the route table names (its `limit` flags, src/contract/endpoints.ts) is a rule
// here: this line stops compiling otherwise.
const routeLimitsKnown: RouteLimit extends RateRuleName ? true : never = true;
void routeLimitsKnown;

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/** A bucket after one change: its tokens, and whether a take found a whole token. */
type BucketState = { tokens: number; took: boolean };

/**
 * Where buckets live. `change` refills the bucket up to `now` and then applies `op`: "take" one
 * token when there is a whole one, "give" one back (up to the limit; a bucket never taken from
 * is left alone), or "peek". One call is atomic.
 */
export interface RateStore {
  change(
    id: string,
    op: "take" | "give" | "peek",
    rule: { limit: number; windowMs: number },
    now: number,
  ): Promise<BucketState>;
  /** Forgets buckets untouched since `before` (all full again). */
  sweep(before: number): Promise<void>;
}

/** One process's buckets. */
export class MemoryRateStore implements RateStore {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();

  async change(
    id: string,
    op: "take" | "give" | "peek",
    rule: { limit: number; windowMs: number },
    now: number,
  ): Promise<BucketState> {
    const { limit, windowMs } = rule;
    const stored = this.buckets.get(id);
    const bucket = stored ?? { tokens: limit, updatedAt: now };
    const refill = ((now - bucket.updatedAt) / windowMs) * limit;
    bucket.tokens = Math.min(limit, bucket.tokens + Math.max(0, refill));
    bucket.updatedAt = Math.max(bucket.updatedAt, now);
    let took = false;
    if (op === "take") {
      took = bucket.tokens >= 1;
      if (took) bucket.tokens -= 1;
      this.buckets.set(id, bucket);
      if (this.buckets.size > 50_000) await this.sweep(now - 60 * 60_000);
    } else if (op === "give" && stored) {
      bucket.tokens = Math.min(limit, bucket.tokens + 1);
    }
    return { tokens: bucket.tokens, took };
  }

  async sweep(before: number): Promise<void> {
    for (const [id, bucket] of this.buckets) if (bucket.updatedAt < before) this.buckets.delete(id);
  }
}

/**
 * Buckets in the shared database's rate_limits table (migration 11): one upsert per change, whose
 * row lock serialises concurrent changes of one bucket on every server. PostgreSQL only: one
 * SQLite database has one server, whose memory is as good and costs no write per request.
 */
export class DatabaseRateStore implements RateStore {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async change(
    id: string,
    op: "take" | "give" | "peek",
    rule: { limit: number; windowMs: number },
    now: number,
  ): Promise<BucketState> {
    const { limit, windowMs } = rule;
    // The bucket refilled up to now (PostgreSQL: LEAST and GREATEST).
    const refilled =
      "LEAST(?::double precision, rate_limits.tokens + GREATEST(0, ?::bigint - rate_limits.updated_at) * ?::double precision / ?::double precision)";
    const refillParams = [limit, now, limit, windowMs];
    if (op === "take") {
      const row = await this.db.get<{ tokens: number; took: unknown }>(
        `INSERT INTO rate_limits (id, tokens, updated_at, took) VALUES (?, ?, ?, 1)
         ON CONFLICT (id) DO UPDATE SET
           tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
           took = CASE WHEN ${refilled} >= 1 THEN 1 ELSE 0 END,
           updated_at = GREATEST(rate_limits.updated_at, EXCLUDED.updated_at)
         RETURNING tokens, took`,
        [id, limit - 1, now, ...refillParams, ...refillParams, ...refillParams, ...refillParams],
      );
      return { tokens: Number(row?.tokens ?? 0), took: Number(row?.took) === 1 };
    }
    if (op === "give") {
      const row = await this.db.get<{ tokens: number }>(
        `UPDATE rate_limits SET tokens = LEAST(?::double precision, ${refilled} + 1),
           updated_at = GREATEST(rate_limits.updated_at, ?::bigint)
         WHERE id = ? RETURNING tokens`,
        [limit, ...refillParams, now, id],
      );
      return { tokens: Number(row?.tokens ?? limit), took: false };
    }
    const row = await this.db.get<{ tokens: number }>(
      `SELECT ${refilled} AS tokens FROM rate_limits WHERE id = ?`,
      [...refillParams, id],
    );
    return { tokens: row === undefined ? limit : Number(row.tokens), took: false };
  }

  async sweep(before: number): Promise<void> {
    await this.db.run("DELETE FROM rate_limits WHERE updated_at < ?", [before]);
  }
}

export class RateLimiter {
  private readonly clock: Clock;
  private readonly scale: number;
  readonly store: RateStore;

  /** `scale` multiplies every limit (tests raise it; 1 in production). */
  constructor(clock: Clock, scale = 1, store: RateStore = new MemoryRateStore()) {
    this.clock = clock;
    this.scale = scale;
    this.store = store;
  }

  private rule(rule: RateRuleName) {
    const { limit, windowMs } = RATE_RULES[rule];
    return { limit: limit * this.scale, windowMs };
  }

  async take(rule: RateRuleName, key: string): Promise<RateDecision> {
    const r = this.rule(rule);
    const state = await this.store.change(`${rule}:${key}`, "take", r, this.clock.now());
    if (state.took) return { ok: true };
    return { ok: false, retryAfterSeconds: seconds(((1 - state.tokens) / r.limit) * r.windowMs) };
  }

  /** Gives back a token that take() counted for something that turned out not to count. */
  async give(rule: RateRuleName, key: string): Promise<void> {
    await this.store.change(`${rule}:${key}`, "give", this.rule(rule), this.clock.now());
  }

  /** True when nothing taken from the bucket is still counted (all refilled, or never used). */
  async isFull(rule: RateRuleName, key: string): Promise<boolean> {
    const r = this.rule(rule);
    const state = await this.store.change(`${rule}:${key}`, "peek", r, this.clock.now());
    return state.tokens >= r.limit;
  }

  /** Seconds until the bucket is full again. */
  async secondsUntilFull(rule: RateRuleName, key: string): Promise<number> {
    const r = this.rule(rule);
    const state = await this.store.change(`${rule}:${key}`, "peek", r, this.clock.now());
    return seconds(((r.limit - state.tokens) / r.limit) * r.windowMs);
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
