// One visitor's browser: a cookie jar (the visitor id cookie `vid`, the session, the `xp` groups
// cookie the server writes) and the checkout's own client (src/client/client.ts) over it, so the
// season sends the very requests the pages and the checkout send, each answer validated with the
// contract. A refusal throws, naming the call and the visitor: the season stops rather than
// carry on with a story it did not play.
import { randomUUID } from "node:crypto";
import type { CallArgs, CallValue } from "../../src/client/call-types.ts";
import { createApiClient } from "../../src/client/client.ts";
import type { Endpoint } from "../../src/contract/common.ts";
import { CLIENT_VERSION } from "../../src/stores/api.ts";

export class Browser {
  readonly base: string;
  /** Who this is, in error messages. */
  readonly who: string;
  private readonly cookies = new Map<string, string>();
  private readonly client;

  constructor(base: string, who: string) {
    this.base = base;
    this.who = who;
    this.client = createApiClient({
      baseUrl: base,
      version: CLIENT_VERSION.replace(/^checkout\//, ""),
      fetch: (url, init) => this.fetch(url, init),
    });
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Sets a cookie as the page's script does (document.cookie): the visitor id. */
  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  /** A request with this browser's cookies; the cookies it answers with are kept. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) {
      headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    }
    const response = await fetch(new URL(url, this.base), { ...init, headers, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      if (/;\s*max-age=0\b/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1));
    }
    return response;
  }

  /** A call of the contract that must succeed: its validated answer. */
  async call<E extends Endpoint>(endpoint: E, ...args: CallArgs<E>): Promise<CallValue<E>> {
    const result = await this.client.call(endpoint, ...args);
    if (!result.ok) {
      const { status, errorCode, message, detail } = result.error;
      throw new Error(
        `${this.who}: ${endpoint.method} ${endpoint.path} answered ${status} ${errorCode ?? ""}: ${message}${detail ? ` (${detail})` : ""}`,
      );
    }
    return result.value;
  }

  /** A fresh Idempotency-Key for one attempt of a payment call, as the checkout makes one. */
  key(): string {
    return randomUUID();
  }
}
