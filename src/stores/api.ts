// The one API client of the browser (src/client/client.ts), shared by every store. Tests and the
// start-up of an island may install another one (a client pointed at a test server); nothing
// else reaches the network.
import { type ApiClient, createApiClient } from "../client/client.ts";

/** Sent as the version header of every call (spec 7: channel/version). */
export const CLIENT_VERSION = "checkout/0.1.0";

let client: ApiClient | null = null;

export function api(): ApiClient {
  client ??= createApiClient({ version: CLIENT_VERSION });
  return client;
}

export function installApiClient(next: ApiClient): void {
  client = next;
}

/** A fresh Idempotency-Key for one attempt of a payment call (reused only to retry it). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}
