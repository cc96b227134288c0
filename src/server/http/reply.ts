// What handlers return. The app writes it out with the security headers of its kind.
import { safeRedirectPath } from "../../domain/account/redirects.ts";
import {
  type ApiError,
  type ApiErrorBody,
  type ApiErrorCode,
  apiError,
  type FieldProblem,
  type MessageArgs,
} from "../../domain/errors/api-errors.ts";

export type Headers = Record<string, string | string[]>;

/** A JSON answer; `T` is its body's type, so contract routes can check it (app.ts). */
export type JsonReply<T = unknown> = { kind: "json"; status: number; body: T; headers?: Headers };
/** An error answer whose error_code is known to be one of `C`. */
export type ErrorReply<C extends string = string> = JsonReply<ApiErrorBody<C>>;

export type Reply =
  | JsonReply
  | { kind: "html"; status: number; body: string; headers?: Headers }
  | { kind: "redirect"; status: 302 | 303; location: string; headers?: Headers }
  | { kind: "empty"; status: 204 | 304; headers?: Headers }
  /** A file to download (an invoice's PDF): its bytes and type. */
  | { kind: "file"; status: 200; body: Uint8Array; contentType: string; headers?: Headers };

export function json<T>(body: T, status = 200, headers?: Headers): JsonReply<T> {
  return headers ? { kind: "json", status, body, headers } : { kind: "json", status, body };
}

/**
 * The one way a handler refuses: `return fail("code", ...args)` for a catalogue error, or
 * `return fail(error, { fields, headers })` for one built already (a pricing refusal), with the
 * fields to fix or headers (Retry-After). The answer is a reply and, as it is, an idempotent
 * call's Outcome (stored under the key like any answer; a "not now" one adds `store: false`).
 */
export function fail<C extends ApiErrorCode>(code: C, ...args: MessageArgs<C>): ErrorReply<C>;
export function fail<C extends string>(
  error: ApiError<C>,
  extra?: { fields?: FieldProblem[]; headers?: Headers },
): ErrorReply<C>;
export function fail(codeOrError: ApiErrorCode | ApiError, ...args: unknown[]): ErrorReply<string> {
  if (typeof codeOrError !== "string") {
    const extra = args[0] as { fields?: FieldProblem[]; headers?: Headers } | undefined;
    const body = extra?.fields ? { ...codeOrError.body, fields: extra.fields } : codeOrError.body;
    return json(body, codeOrError.status, extra?.headers);
  }
  const error = (apiError as (code: ApiErrorCode, ...rest: unknown[]) => ApiError)(
    codeOrError,
    ...args,
  );
  return json(error.body, error.status);
}

/** A file answer; `filename` makes the browser offer to save it (Content-Disposition). */
export function file(body: Uint8Array, contentType: string, filename: string): Reply {
  const safe = filename.replace(/[^A-Za-z0-9._-]/g, "_");
  return {
    kind: "file",
    status: 200,
    body,
    contentType,
    headers: { "Content-Disposition": `attachment; filename="${safe}"` },
  };
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
