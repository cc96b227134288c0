// Random secrets (session ids, reset tokens, e-mail codes, ids) and how they are stored: as an
// HMAC under the server's secret key, so a copy of the database alone gives nothing usable.
import {
  createHmac,
  createSecretKey,
  hash,
  type KeyObject,
  randomBytes,
  randomInt,
} from "node:crypto";

/** 256 random bits, URL-safe. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** A numeric code of `digits` digits (e-mail verification). */
export function randomCode(digits = 6): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, "0");
}

/** A prefixed random id such as ord_… or in_…. */
export function randomId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBytes(bytes).toString("base64url")}`;
}

// createHmac with a Buffer builds a KeyObject each call; building it once per secret is cheaper.
const keys = new WeakMap<Buffer, KeyObject>();

export function keyedHash(secret: Buffer, value: string): string {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(secret);
    keys.set(secret, key);
  }
  return createHmac("sha256", key).update(value).digest("base64url");
}

/**
 * How a high-entropy token (a 256-bit session id) is stored: its SHA-256. A hash of 256 random
 * bits cannot be reversed, so no key is needed, and this runs on every signed-in request.
 */
export function tokenHash(token: string): string {
  // The one-shot form: about half the cost of a Hash object for a short input.
  return hash("sha256", token, "base64url");
}
