// Password hashing with scrypt (node:crypto; no native add-on). Stored as
// scrypt$<log2 N>$<r>$<p>$<salt>$<hash>, so the cost can be raised later and old hashes still verify.
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";

const KEY_LENGTH = 32;
export const DEFAULT_COST = 15; // N = 32768, r = 8: about 32 MiB and a few tens of ms per hash

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: 128 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string, cost = DEFAULT_COST): Promise<string> {
  const salt = randomBytes(16);
  const r = 8;
  const p = 1;
  const key = await derive(password, salt, { N: 2 ** cost, r, p });
  return ["scrypt", cost, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !cost || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await derive(password, Buffer.from(salt, "base64url"), {
    N: 2 ** Number(cost),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** The server's password work as one object, so that a test can count it (decision 0011). */
export type PasswordHasher = {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  /** Spends the work of a verify where there is no account to check the password against. */
  verifyDummy(password: string): Promise<false>;
};

export function scryptHasher(cost = DEFAULT_COST): PasswordHasher {
  return {
    hash: (password) => hashPassword(password, cost),
    verify: verifyPassword,
    verifyDummy: (password) => verifyAgainstDummy(password, cost),
  };
}

let dummy: Promise<string> | null = null;

/**
 * Spends the same work as a real check when the e-mail is unknown, so a sign-in answer takes as
 * long for unknown addresses as for known ones.
 */
async function verifyAgainstDummy(password: string, cost = DEFAULT_COST): Promise<false> {
  dummy ??= hashPassword("dummy password that never matches", cost);
  await verifyPassword(password, await dummy);
  return false;
}

/**
 * More password work is waiting than the server can do soon: the request is shed (429 with
 * Retry-After, app.ts) instead of queueing behind a flood. 600 sign-ins from 600 addresses, each
 * within its own limits, once queued 160 s of scrypt in front of a real user's sign-in.
 */
export class PasswordWorkBusy extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super("Too much password work is waiting; try again shortly.");
    this.name = "PasswordWorkBusy";
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export type PasswordWorkLimits = {
  /** Hashes computed at once (scrypt runs on libuv's pool of 4 threads). */
  concurrency: number;
  /** Hashes waiting for a turn; one more is shed. */
  maxQueue: number;
  /**
   * A request that would wait longer than this for its turn (the queue ahead of it times the
   * recent time of a hash) is shed too: on a loaded machine a hash takes ten times longer, and
   * the queue shortens accordingly.
   */
  maxWaitMs: number;
  /** What the shed request is told to wait. */
  retryAfterSeconds: number;
};

/**
 * Bounded by default to the cores (at most 4, libuv's threads) and 4 waiting per core: a hash
 * takes tens of milliseconds, so a request admitted waits well under a second however large the
 * flood, and a legitimate sign-in that is shed succeeds on its retry a second later.
 */
export function defaultPasswordWorkLimits(cores = availableParallelism()): PasswordWorkLimits {
  const concurrency = Math.max(1, Math.min(4, cores));
  return { concurrency, maxQueue: 4 * concurrency, maxWaitMs: 1_000, retryAfterSeconds: 1 };
}

/** A hasher whose work goes through one semaphore with a bounded queue (the server's only one). */
export function boundedHasher(
  inner: PasswordHasher,
  limits: PasswordWorkLimits = defaultPasswordWorkLimits(),
  now: () => number = () => performance.now(),
): PasswordHasher & { readonly active: number; readonly queued: number; readonly shed: number } {
  let active = 0;
  let shed = 0;
  /** Recent time of one hash (moving average), 0 until one finished. */
  let hashMs = 0;
  const waiting: (() => void)[] = [];
  const acquire = (): Promise<void> => {
    if (active < limits.concurrency) {
      active += 1;
      return Promise.resolve();
    }
    const expectedWaitMs = ((waiting.length + 1) * hashMs) / limits.concurrency;
    if (waiting.length >= limits.maxQueue || expectedWaitMs > limits.maxWaitMs) {
      shed += 1;
      return Promise.reject(new PasswordWorkBusy(limits.retryAfterSeconds));
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  };
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    await acquire();
    const started = now();
    try {
      return await work();
    } finally {
      const took = now() - started;
      hashMs = hashMs === 0 ? took : 0.8 * hashMs + 0.2 * took;
      release();
    }
  };
  return {
    hash: (password) => run(() => inner.hash(password)),
    verify: (password, stored) => run(() => inner.verify(password, stored)),
    verifyDummy: (password) => run(() => inner.verifyDummy(password)),
    get active() {
      return active;
    },
    get queued() {
      return waiting.length;
    },
    get shed() {
      return shed;
    },
  };
}
