// Password hashing with scrypt (node:crypto; no native add-on). Stored as
// scrypt$<log2 N>$<r>$<p>$<salt>$<hash>, so the cost can be raised later and old hashes still verify.
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

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

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
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
export async function verifyAgainstDummy(password: string, cost = DEFAULT_COST): Promise<false> {
  dummy ??= hashPassword("dummy password that never matches", cost);
  await verifyPassword(password, await dummy);
  return false;
}
