// One Idempotency-Key, one answer (issue "Idempotency"). The first request with a key claims it;
// its answer is stored in the same transaction as the order it made, so an acknowledged order and
// its stored answer are never apart. Later requests with the key get that answer again; requests
// arriving while the first is still running wait for it (in this process) instead of running
// twice. The same key with a different request is refused. A key left pending by a server process
// that died is taken over by the next request with it: the payment provider is called with an
// idempotency key derived from ours, so the charge the dead process may have made is found, not
// repeated.
import { createHash } from "node:crypto";
import { apiError } from "../../domain/errors/api-errors.ts";
import type { Clock } from "../clock.ts";
import type { Db, Queryable } from "../db/db.ts";
import { IdempotencyKeys } from "../db/idempotency.ts";

export type StoredAnswer = { status: number; body: unknown; replayed: boolean };

export type Outcome = {
  status: number;
  body: unknown;
  /**
   * Writes committed atomically with the stored answer (the order, the account change). They may
   * fill in fields of `body`, which is stored after they ran.
   */
  commit?: (tx: Queryable) => Promise<void>;
};

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** The request a key was first used for: method, path and the parsed body, key order ignored. */
export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${path}\n${JSON.stringify(canonical(body ?? null))}`)
    .digest("base64url");
}

export function validKey(key: string | undefined): key is string {
  return typeof key === "string" && /^[\x21-\x7e]{1,255}$/.test(key);
}

type InFlight = { fingerprint: string; answer: Promise<StoredAnswer> };

export class IdempotencyService {
  private readonly inFlight = new Map<string, InFlight>();
  private readonly db: Db;
  private readonly clock: Clock;
  /** This server process; pending keys of another owner belong to a process that is gone. */
  readonly bootId: string;

  constructor(db: Db, clock: Clock, bootId: string) {
    this.db = db;
    this.clock = clock;
    this.bootId = bootId;
  }

  run(
    userId: number,
    key: string,
    print: string,
    work: () => Promise<Outcome>,
  ): Promise<StoredAnswer> {
    const id = `${userId}\u0000${key}`;
    const running = this.inFlight.get(id);
    if (running) {
      if (running.fingerprint !== print) return Promise.resolve(this.reused());
      return running.answer.then((a) => ({ ...a, replayed: true }));
    }
    const answer = this.execute(userId, key, print, work);
    this.inFlight.set(id, { fingerprint: print, answer });
    const forget = () => {
      if (this.inFlight.get(id)?.answer === answer) this.inFlight.delete(id);
    };
    answer.then(forget, forget);
    return answer;
  }

  private reused(): StoredAnswer {
    const error = apiError("idempotency_key_reused");
    return { status: error.status, body: error.body, replayed: false };
  }

  private async execute(
    userId: number,
    key: string,
    print: string,
    work: () => Promise<Outcome>,
  ): Promise<StoredAnswer> {
    const now = this.clock.now();
    const claim = await this.db.transaction(async (tx) => {
      const existing = await IdempotencyKeys.get(tx, userId, key);
      if (!existing) {
        await IdempotencyKeys.claim(tx, {
          userId,
          key,
          fingerprint: print,
          owner: this.bootId,
          now,
        });
        return { kind: "claimed" as const };
      }
      if (existing.fingerprint !== print) return { kind: "mismatch" as const };
      if (existing.state === "done") {
        return {
          kind: "done" as const,
          status: existing.status ?? 500,
          response: existing.response ?? "null",
        };
      }
      if (existing.owner !== this.bootId) {
        await IdempotencyKeys.takeOver(tx, userId, key, existing.owner, this.bootId);
        return { kind: "claimed" as const };
      }
      return { kind: "busy" as const };
    });
    if (claim.kind === "mismatch") return this.reused();
    if (claim.kind === "done")
      return { status: claim.status, body: JSON.parse(claim.response), replayed: true };
    if (claim.kind === "busy") {
      const error = apiError("idempotency_key_in_progress");
      return { status: error.status, body: error.body, replayed: false };
    }

    let outcome: Outcome;
    try {
      outcome = await work();
    } catch (error) {
      await this.db.transaction((tx) => IdempotencyKeys.release(tx, userId, key, this.bootId));
      throw error;
    }
    if (outcome.status >= 500) {
      // Not an answer to keep: nothing was done, the client may retry with the same key.
      await this.db.transaction((tx) => IdempotencyKeys.release(tx, userId, key, this.bootId));
      return { status: outcome.status, body: outcome.body, replayed: false };
    }
    const commit = this.db.transaction(async (tx) => {
      if (outcome.commit) await outcome.commit(tx);
      // Serialised after the writes: an answer may carry what they produced (ids, names).
      const response = JSON.stringify(outcome.body);
      const completed = await IdempotencyKeys.complete(tx, {
        userId,
        key,
        owner: this.bootId,
        status: outcome.status,
        response,
        now: this.clock.now(),
      });
      if (!completed) throw new Error(`Idempotency key ${key} was taken over while in use`);
    });
    try {
      await commit;
    } catch (error) {
      // The transaction wrote nothing: free the key so that a retry can do the work.
      await this.db.transaction((tx) => IdempotencyKeys.release(tx, userId, key, this.bootId));
      throw error;
    }
    return { status: outcome.status, body: outcome.body, replayed: false };
  }
}
