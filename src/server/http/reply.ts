// What handlers return. The app writes it out with the security headers of its kind.
import { safeRedirectPath } from "../../domain/account/redirects.ts";
import {
  type ApiError,
  type ApiErrorCode,
  apiError,
  type MessageArgs,
} from "../../domain/errors/api-errors.ts";

export type Headers = Record<string, string | string[]>;

export type Reply =
  | { kind: "json"; status: number; body: unknown; headers?: Headers }
  | { kind: "html"; status: number; body: string; headers?: Headers }
  | { kind: "redirect"; status: 302 | 303; location: string; headers?: Headers }
  | { kind: "empty"; status: 204 | 304; headers?: Headers };

export function json(body: unknown, status = 200, headers?: Headers): Reply {
  return headers ? { kind: "json", status, body, headers } : { kind: "json", status, body };
}

export function fromApiError(error: ApiError, headers?: Headers): Reply {
  return json(error.body, error.status, headers);
}

export function fail<C extends ApiErrorCode>(code: C, ...args: MessageArgs<C>): Reply {
  return fromApiError(apiError(code, ...args));
}

export function html(body: string, status = 200, headers?: Headers): Reply {
  return headers ? { kind: "html", status, body, headers } : { kind: "html", status, body };
}

/**
 * A redirect to a page of this site. Every target goes through the allow-list of
 * `safeRedirectPath`: anything else is a bug of the caller, which must check targets that come
 * from outside (and choose a fallback) before it gets here, so this throws rather than send it.
 */
export function redirect(target: string, status: 302 | 303 = 303, headers?: Headers): Reply {
  const location = safeRedirectPath(target);
  if (location === null) throw new Error(`Not a page of this site: ${JSON.stringify(target)}`);
  return headers
    ? { kind: "redirect", status, location, headers }
    : { kind: "redirect", status, location };
}

/** Thrown by helpers (body parsing, session checks) to end a request with an error answer. */
export class HttpError extends Error {
  readonly error: ApiError;
  readonly headers: Headers | undefined;
  constructor(error: ApiError, headers?: Headers) {
    super(error.body.message);
    this.name = "HttpError";
    this.error = error;
    this.headers = headers;
  }
}

export function httpError<C extends ApiErrorCode>(code: C, ...args: MessageArgs<C>): HttpError {
  return new HttpError(apiError(code, ...args));
}

const escapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c] ?? c);
}
