// The closed set of error codes the API answers (`error_code` of every ErrorBody), and the groups
// of codes that whole kinds of calls share. The set is derived from the server's catalogue
// (src/domain/errors/api-errors.ts) and the card codes of `cardError`, so there is one source:
// a new catalogue entry is a new code here, and every exhaustive switch over ErrorCode (the
// browser's messages) stops compiling until it handles it. Browser-safe: pure data.
import { type AnyErrorCode, API_ERRORS, type ApiErrorCode } from "../domain/errors/api-errors.ts";
import { CARD_ERROR_CODES } from "../domain/errors/card-errors.ts";
import type { KnownErrorCode } from "./endpoints.ts";

export type ErrorCode = AnyErrorCode;

export const ERROR_CODES: readonly ErrorCode[] = [
  ...(Object.keys(API_ERRORS) as ApiErrorCode[]),
  ...CARD_ERROR_CODES,
];

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);

// The browser's list of codes (endpoints.ts, without messages) is written by hand: this line
// stops compiling when it and the catalogue differ by a code either way.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameCodes: Same<KnownErrorCode, ErrorCode> = true;
void sameCodes;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && KNOWN.has(code);
}

/** Any call can fail unexpectedly on the server. */
export const EVERY_CALL_ERRORS = ["internal_error"] as const;
/** Calls that change something (POST, PUT, DELETE) refuse requests from other sites. */
export const STATE_CHANGE_ERRORS = ["cross_site"] as const;
/** Calls that read a body refuse bodies that are not JSON or a form, too big, too deep or wrong. */
export const BODY_ERRORS = [
  "invalid_json",
  "invalid_request",
  "body_too_large",
  "body_too_deep",
  "unsupported_media_type",
] as const;
/** Calls that read a query refuse one that does not match its schema. */
export const QUERY_ERRORS = ["invalid_request"] as const;
/** Payment calls: signed in, one Idempotency-Key per attempt (src/server/routing.ts). */
export const IDEMPOTENT_ERRORS = [
  "not_authenticated",
  "idempotency_key_required",
  "idempotency_key_reused",
  "idempotency_key_in_progress",
] as const;
/** The answers of a refused card or provider. */
export const PAYMENT_PROVIDER_ERRORS = [
  ...CARD_ERROR_CODES,
  "card_error",
  "invalid_card",
  "payment_provider_unavailable",
  "payment_pending",
  "authentication_required",
  "authentication_failed",
] as const;
