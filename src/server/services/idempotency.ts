// One Idempotency-Key, one answer (issue "Idempotency"). The first request with a key claims it;
// its answer is stored in the same transaction as the order it made, so an acknowledged order and
// its stored answer are never apart. Later requests with the key get that answer again; requests
// arriving while the first is still running wait for it instead of running twice: in memory when
// it runs in this process, by reading the key again (every 25-100 ms) when another server on the
// same PostgreSQL database runs it. The same key with a different request is refused.
//
// A key left pending by a server process that died is taken over by the next request with it: the
// payment provider is called with an idempotency key derived from ours, so the charge the dead
// process may have made is found, not repeated. When is the owner dead? On SQLite one process
// serves a data folder, so a pending key of another boot id is from a process that is gone, and is
// taken over at once (a restart retries at once). On PostgreSQL several live servers share the
// keys, so a pending key carries a lease (system time; LEASE_MS) that its owner renews while it
// works; it is taken over only once the lease ran out (docs/decisions/0014).
import { createHash } from "node:crypto";
import { apiError } from "../../domain/errors/api-errors.ts";
import type { Clock } from "../clock.ts";
// Its types are the request context's (context.ts), so that context.ts needs nothing of services/.
import type { Exclusive, Idempotency, Outcome, StoredAnswer } from "../context.ts";
import type { Db, Queryable } from "../db/db.ts";
import { IdempotencyKeys } from "../db/idempotency.ts";

export type { Exclusive, Outcome, StoredAnswer } from "../context.ts";

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

type InFlight = {
  fingerprint: string;
  answer: Promise<StoredAnswer>;
  /**
   * Whether the key is this request's (claimed by it, or stored with its fingerprint), known once
   * its claim is read: false for a request that itself reuses the key with another body.
   */
  holdsKey: Promise<boolean>;
};

/** How long a pending key stays its owner's without a renewal (renewed every third of it). */
const LEASE_MS = 15_000;
/** How long a request waits for another server's run of its key before 409 in progress. */
const WAIT_MS = 20_000;

export type IdempotencyOptions = {
  leaseMs?: number;
  waitMs?: number;
  /** The time leases are measured in (system time; tests move it). */
  leaseClock?: () => number;
  /**
   * Told each time a request finds its key pending on another server and waits to read it
   * again: a test waits for this instead of sleeping.
   */
  onWait?: () => void;
};

type Claim =
  | { kind: "claimed" }
  | { kind: "mismatch" }
  | { kind: "done"; status: number; response: string }
  /** Pending: `owner` works on it (this process when it is our boot id). */
  | { kind: "busy"; owner: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class IdempotencyService implements Idempotency {
  private readonly inFlight = new Map<string, InFlight>();
  private readonly db: Db;
  private readonly clock: Clock;
  /** This server process. */
  readonly bootId: string;
  /** One process per database (SQLite): another owner's pending key is a dead process's. */
  private readonly soleServer: boolean;
  private readonly leaseMs: number;
  private readonly waitMs: number;
  private readonly leaseClock: () => number;
  private readonly onWait: () => void;

  constructor(db: Db, clock: Clock, bootId: string, options: IdempotencyOptions = {}) {
    this.db = db;
    this.clock = clock;
    this.bootId = bootId;
    this.soleServer = db.dialect === "sqlite";
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.waitMs = options.waitMs ?? WAIT_MS;
    this.leaseClock = options.leaseClock ?? Date.now;
    this.onWait = options.onWait ?? (() => {});
  }

  /**
   * Runs `work` once per key. `exclusive`, when given, wraps the run of the request that claimed
   * the key, its work and the commit of its answer (the account's lock, decision 0013): requests
   * that join, replay or reuse the key never enter it, so a request with the key and another body
   * is refused without touching what the running one holds (issue 18, item 7).
   */
  run(
    userId: number,
    key: string,
    print: string,
    work: () => Promise<Outcome>,
    exclusive?: Exclusive,
  ): Promise<StoredAnswer> {
    const id = `${userId}\u0000${key}`;
    const running = this.inFlight.get(id);
    if (running) {
      // Another body than the running request's: refused if that request holds the key. If it
      // does not (it reuses the key with a body of its own), this one asks the database itself.
      if (running.fingerprint !== print)
        return running.holdsKey.then((holds) =>
          holds ? this.reused() : this.run(userId, key, print, work, exclusive),
        );
      return running.answer.then((a) => ({ ...a, replayed: true }));
    }
    let decide: (holds: boolean) => void = () => {};
    const holdsKey = new Promise<boolean>((resolve) => {
      decide = resolve;
    });
    const forget = () => {
      if (this.inFlight.get(id)?.holdsKey === holdsKey) this.inFlight.delete(id);
    };
    const answer = this.execute(userId, key, print, work, exclusive, (holds) => {
      // A request that does not hold the key leaves the list before anyone waiting is told.
      if (!holds) forget();
      decide(holds);
    });
    this.inFlight.set(id, { fingerprint: print, answer, holdsKey });
    const settle = () => {
      forget();
      decide(false);
    };
    answer.then(settle, settle);
    return answer;
  }

  private reused(): StoredAnswer {
    const error = apiError("idempotency_key_reused");
    return { status: error.status, body: error.body, replayed: false };
  }

  /**
   * Claims the key, finds its answer, or finds it pending. A new key (nearly every request) is
   * claimed by one INSERT ... ON CONFLICT DO NOTHING that commits alone; a key that exists is
   * read, and perhaps taken over, in one transaction.
   */
  private async claim(userId: number, key: string, print: string): Promise<Claim> {
    const now = this.clock.now();
    const leaseNow = this.leaseClock();
    const leaseUntil = leaseNow + this.leaseMs;
    const claim = { userId, key, fingerprint: print, owner: this.bootId, now, leaseUntil };
    if (await IdempotencyKeys.claimAlone(this.db, claim)) return { kind: "claimed" };
    return this.db.transaction(async (tx): Promise<Claim> => {
      const existing = await IdempotencyKeys.get(tx, userId, key);
      if (!existing) {
        // Released since the insert above: claim it now.
        const claimed = await IdempotencyKeys.claim(tx, claim);
        // Not claimed: another server inserted it since (read committed); look again.
        return claimed ? { kind: "claimed" } : { kind: "busy", owner: "" };
      }
      if (existing.fingerprint !== print) return { kind: "mismatch" };
      if (existing.state === "done") {
        return {
          kind: "done",
          status: existing.status ?? 500,
          response: existing.response ?? "null",
        };
      }
      if (existing.owner === this.bootId) return { kind: "busy", owner: existing.owner };
      const runOut =
        this.soleServer || existing.leaseUntil === null || existing.leaseUntil <= leaseNow;
      if (!runOut) return { kind: "busy", owner: existing.owner };
      const taken = await IdempotencyKeys.takeOver(tx, {
        userId,
        key,
        from: existing.owner,
        to: this.bootId,
        leaseUntil,
        runOutBy: this.soleServer ? null : leaseNow,
      });
      return taken ? { kind: "claimed" } : { kind: "busy", owner: existing.owner };
    });
  }

  private async execute(
    userId: number,
    key: string,
    print: string,
    work: () => Promise<Outcome>,
    exclusive: Exclusive | undefined,
    /** Told once the claim is read whether the key is this request's (InFlight.holdsKey). */
    decided: (holds: boolean) => void,
  ): Promise<StoredAnswer> {
    const giveUpAt = this.leaseClock() + this.waitMs;
    let claim = await this.claim(userId, key, print);
    // Another server works on the key: read it again until it has an answer, is freed, or its
    // lease runs out (that server died), then take the first answer or the work.
    for (let pause = 25; claim.kind === "busy" && claim.owner !== this.bootId; ) {
      if (this.leaseClock() >= giveUpAt) break;
      this.onWait();
      await sleep(pause);
      pause = Math.min(100, pause * 2);
      claim = await this.claim(userId, key, print);
    }
    decided(claim.kind !== "mismatch");
    if (claim.kind === "mismatch") return this.reused();
    if (claim.kind === "done")
      return { status: claim.status, body: JSON.parse(claim.response), replayed: true };
    if (claim.kind === "busy") {
      const error = apiError("idempotency_key_in_progress");
      return { status: error.status, body: error.body, replayed: false };
    }
    // Renewed while the work runs (a provider call may take a while), so that no other server
    // takes the key over from a live owner.
    const renewal = setInterval(
      () => {
        const leaseUntil = this.leaseClock() + this.leaseMs;
        this.db
          .transaction((tx) =>
            IdempotencyKeys.renew(tx, { userId, key, owner: this.bootId, leaseUntil }),
          )
          .catch(() => {
            // The next renewal tries again; a key lost meanwhile fails at completion.
          });
      },
      Math.max(10, Math.floor(this.leaseMs / 3)),
    );
    renewal.unref();
    // Work after the commit (an invoice's numbering) runs once the account's lock is let go.
    let afterCommit: (() => Promise<void>) | undefined;
    const perform = () =>
      this.perform(userId, key, work, (after) => {
        afterCommit = after;
      });
    try {
      const answer = await (exclusive ? exclusive(perform) : perform());
      await afterCommit?.();
      return answer;
    } catch (error) {
      // Refused before the work ran (the account is busy): free the key for a retry.
      await this.db.transaction((tx) => IdempotencyKeys.release(tx, userId, key, this.bootId));
      throw error;
    } finally {
      clearInterval(renewal);
    }
  }

  private async perform(
    userId: number,
    key: string,
    work: () => Promise<Outcome>,
    committed: (afterCommit: Outcome["afterCommit"]) => void,
  ): Promise<StoredAnswer> {
    let outcome: Outcome;
    try {
      outcome = await work();
    } catch (error) {
      await this.db.transaction((tx) => IdempotencyKeys.release(tx, userId, key, this.bootId));
      throw error;
    }
    if (outcome.status >= 500 || outcome.store === false) {
      // Not an answer to keep: nothing was done, the client may retry with the same key.
      await this.db.transaction((tx) => IdempotencyKeys.release(tx, userId, key, this.bootId));
      return { status: outcome.status, body: outcome.body, replayed: false };
    }
    const complete = async (tx: Queryable) => {
      const completed = await IdempotencyKeys.complete(tx, {
        userId,
        key,
        owner: this.bootId,
        status: outcome.status,
        response: JSON.stringify(outcome.body),
        now: this.clock.now(),
      });
      if (!completed) throw new Error(`Idempotency key ${key} was taken over while in use`);
    };
    const commit = this.db.transaction(
      async (tx) => {
        if (outcome.bodyFinal) {
          // Issued together, the key's completion after the writes; both done before COMMIT.
          await Promise.all([outcome.commit?.(tx), complete(tx)]);
          return;
        }
        if (outcome.commit) await outcome.commit(tx);
        // Serialised after the writes: an answer may carry what they produced (ids, names).
        await complete(tx);
      },
      { isolation: outcome.isolation },
    );
    try {
      await commit;
    } catch (error) {
      // The transaction wrote nothing: free the key so that a retry can do the work.
      await this.db.transaction((tx) => IdempotencyKeys.release(tx, userId, key, this.bootId));
      throw error;
    }
    committed(outcome.afterCommit);
    return { status: outcome.status, body: outcome.body, replayed: false };
  }
}
