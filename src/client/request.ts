// How a call becomes an HTTP request (spec section 7): the address with its path parameters and
// query, and the headers and body. Pure, so each rule is tested without a network.

import { IDEMPOTENCY_HEADER } from "../contract/constants.ts";
import type { Route } from "../contract/endpoints.ts";

/** The header that names the client (spec 7: "a version header (channel/version)"). */
export const VERSION_HEADER = "X-Client-Version";
/** The channel of this client: the checkout app. */
export const CLIENT_CHANNEL = "checkout";

export type RequestInput = {
  params?: Record<string, string | number> | undefined;
  query?: unknown;
  body?: unknown;
  idempotencyKey?: string | undefined;
  form?: boolean | undefined;
};

export type BuiltRequest = {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
};

/** A call that cannot be sent as asked (a bad path parameter); no request goes out. */
export class CallInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CallInputError";
  }
}

/**
 * Fills the `:name` parameters of a path, each percent-encoded as one segment. Empty, "." and
 * ".." are refused: URL resolution would drop the segment or climb out of the endpoint's path
 * (and "%2E%2E" counts as ".." too), so "/invites/.." would reach another address.
 */
function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (value === undefined) throw new CallInputError(`missing path parameter ${name}`);
    const text = String(value);
    if (text === "" || text === "." || text === "..") {
      throw new CallInputError(`path parameter ${name} cannot be ${JSON.stringify(text)}`);
    }
    return encodeURIComponent(text);
  });
}

/**
 * A query string from an object: undefined and null values are left out, everything else is
 * sent as text (booleans as "true"/"false", the spec's flags), in the object's order.
 */
function queryString(query: unknown): string {
  if (typeof query !== "object" || query === null) return "";
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** A flat body as a form; the server reads "true"/"false" back as booleans. */
function formBody(body: unknown): string {
  return queryString(body).slice(1);
}

// Spec 7: the change-password call goes out with no-cache headers, so no cache on the way keeps
// the answer to a request that carries a password.
const NO_CACHE_HEADERS = {
  "Cache-Control": "no-cache, no-store",
  Pragma: "no-cache",
  Expires: "0",
};

export function buildRequest(
  endpoint: Route,
  input: RequestInput,
  client: { baseUrl: string; version: string },
): BuiltRequest {
  const url = `${client.baseUrl}${fillPath(endpoint.path, input.params)}${queryString(input.query)}`;
  const headers: Record<string, string> = {
    Accept: "application/json",
    [VERSION_HEADER]: `${CLIENT_CHANNEL}/${client.version}`,
  };
  if (endpoint.noCache) Object.assign(headers, NO_CACHE_HEADERS);
  if (input.idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = input.idempotencyKey;
  let body: string | undefined;
  // Like the browser's own requests, a call without a body sends no Content-Type.
  if (input.body !== undefined) {
    if (input.form ?? endpoint.form ?? false) {
      headers["Content-Type"] = "application/x-www-form-urlencoded;charset=UTF-8";
      body = formBody(input.body);
    } else {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(input.body);
    }
  }
  return { url, method: endpoint.method, headers, body };
}
