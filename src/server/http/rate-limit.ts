// Token-bucket rate limits, in memory per server process (a multi-instance deployment would keep
// the buckets in a shared store; the interface stays the same). Time comes from the clock.
import type { Clock } from "../clock.ts";

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
  telemetryPerIp: { limit: 120, windowMs: 60_000 },
  telemetryPerAccount: { limit: 60, windowMs: 60_000 },
} as const satisfies Record<string, RateRule>;

export type RateRuleName = keyof typeof RATE_RULES;

type Bucket = { tokens: number; updatedAt: number };

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly clock: Clock;
  private readonly scale: number;

  /** `scale` multiplies every limit (tests raise it; 1 in production). */
  constructor(clock: Clock, scale = 1) {
    this.clock = clock;
    this.scale = scale;
  }

  take(rule: RateRuleName, key: string): RateDecision {
    const { id, bucket, limit, windowMs, now } = this.refilled(rule, key);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.buckets.set(id, bucket);
      if (this.buckets.size > 50_000) this.sweep(now);
      return { ok: true };
    }
    this.buckets.set(id, bucket);
    return { ok: false, retryAfterSeconds: seconds(((1 - bucket.tokens) / limit) * windowMs) };
  }

  /** Gives back a token that take() counted for something that turned out not to count. */
  give(rule: RateRuleName, key: string): void {
    const { id, bucket, limit } = this.refilled(rule, key);
    if (!this.buckets.has(id)) return;
    bucket.tokens = Math.min(limit, bucket.tokens + 1);
  }

  /** True when nothing taken from the bucket is still counted (all refilled, or never used). */
  isFull(rule: RateRuleName, key: string): boolean {
    const { bucket, limit } = this.refilled(rule, key);
    return bucket.tokens >= limit;
  }

  /** Seconds until the bucket is full again. */
  secondsUntilFull(rule: RateRuleName, key: string): number {
    const { bucket, limit, windowMs } = this.refilled(rule, key);
    return seconds(((limit - bucket.tokens) / limit) * windowMs);
  }

  /** The bucket refilled up to now (a new, full one is not stored until something is taken). */
  private refilled(rule: RateRuleName, key: string) {
    const { limit: baseLimit, windowMs } = RATE_RULES[rule];
    const limit = baseLimit * this.scale;
    const now = this.clock.now();
    const id = `${rule}:${key}`;
    const bucket = this.buckets.get(id) ?? { tokens: limit, updatedAt: now };
    const refill = ((now - bucket.updatedAt) / windowMs) * limit;
    bucket.tokens = Math.min(limit, bucket.tokens + Math.max(0, refill));
    bucket.updatedAt = now;
    return { id, bucket, limit, windowMs, now };
  }

  /** Forgets buckets that have refilled completely. */
  private sweep(now: number): void {
    for (const [id, bucket] of this.buckets) {
      const rule = RATE_RULES[id.slice(0, id.indexOf(":")) as RateRuleName];
      if (!rule || now - bucket.updatedAt > rule.windowMs) this.buckets.delete(id);
    }
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
