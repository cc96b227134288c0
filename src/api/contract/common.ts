// Shapes shared by every endpoint of the contract. Browser-safe: zod only, no Node imports.
import { z } from "zod";
import {
  BODY_ERRORS,
  type ErrorCode,
  EVERY_CALL_ERRORS,
  QUERY_ERRORS,
  STATE_CHANGE_ERRORS,
} from "./errors.ts";

/** Integer cents (ARCHITECTURE.md "Money"); credits and discounts are given as positive amounts. */
export const Cents = z.number().int();
/** Millisecond timestamp. */
export const Timestamp = z.number().int();
export const ProductCode = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9_]+$/, { message: "must be a product code such as wv_single_12m" });

// Characters refused in text a person types (names, workspace names, addresses): control
// characters (C0, DEL, C1; tab, CR and LF among them), the line and paragraph separators, and the
// bidirectional marks, overrides and isolates, which can make a name display as something else
// ("Mallory\u202Egnp.exe"). Zero-width joiners stay allowed: some scripts and emoji need them.
const NOT_IN_TEXT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// The same for text that may span lines (a reason given when cancelling): LF is allowed there.
const NOT_IN_MULTILINE_TEXT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Text a person types and the server stores: refused (400, naming the field) when it holds control
 * characters, line breaks or bidirectional marks; otherwise trimmed and NFC-normalised, so the
 * same name is stored the same way whatever keyboard or platform typed it. `multiline` allows
 * line feeds (a CR LF pair counts as one).
 */
export function typedText(limits: { min?: number; max: number; multiline?: boolean }) {
  const forbidden = limits.multiline ? NOT_IN_MULTILINE_TEXT : NOT_IN_TEXT;
  const what = limits.multiline
    ? "must not contain control characters or bidirectional marks"
    : "must not contain control characters, line breaks or bidirectional marks";
  return z
    .string()
    .transform((s) => (limits.multiline ? s.replace(/\r\n/g, "\n") : s))
    .refine((s) => !forbidden.test(s), { message: what })
    .transform((s) => s.trim().normalize("NFC"))
    .pipe(
      z
        .string()
        .min(limits.min ?? 0)
        .max(limits.max),
    );
}

export const FieldProblem = z.object({ path: z.string(), message: z.string() });
/** Every error answer (4xx and 5xx); `fields` only on invalid_request, one entry per field. */
export const ErrorBody = z.object({
  message: z.string(),
  error_code: z.string(),
  fields: z.array(FieldProblem).optional(),
  /**
   * `authentication_required`: what the payment step needs to show the bank's step (the
   * provider's payment id and Stripe's client secret, or the sandbox's authentication page).
   */
  action: z
    .object({ paymentId: z.string(), clientSecret: z.string(), url: z.string().optional() })
    .optional(),
});
export type ErrorBody = z.output<typeof ErrorBody>;

export const Success = z.object({ success: z.literal(true) });
/** Answers where `success: false` is a normal outcome (spec sections 5 and 7). */
export const SuccessFlag = z.object({ success: z.boolean() });

export { IDEMPOTENCY_HEADER, MAX_BODY_BYTES, MAX_JSON_DEPTH } from "./constants.ts";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export type Endpoint = {
  method: Method;
  /** Path with `:name` parameters, for example /api/5/invites/:code. */
  path: string;
  /** Query parameters (strings). */
  query?: z.ZodType;
  /** JSON body. */
  body?: z.ZodType;
  /** 2xx answer. */
  response: z.ZodType;
  /** The call must carry an Idempotency-Key header; one key never makes two orders or charges. */
  idempotent?: boolean;
  /**
   * Statuses below 500 are answers the client reads (the user info call), when they match this
   * schema: the signed-out answer of the user info call is 401 `{ success: false, ... }`.
   */
  acceptsBelow500?: z.ZodType;
  /** The body goes as a form (application/x-www-form-urlencoded), spec 7's variant, not JSON. */
  form?: boolean;
  /** Sent with no-cache request headers (spec 7: the change-password call). */
  noCache?: boolean;
  /**
   * Every error_code this call can answer, the generic ones included (`endpoint()` adds them).
   * The server checks its answers against it when it validates responses (tests).
   */
  errors: readonly ErrorCode[];
};

/** An endpoint as written in index.ts: its own error codes; `endpoint()` adds the generic ones. */
export type EndpointSpec = Omit<Endpoint, "errors"> & { errors: readonly ErrorCode[] };

/** The generic codes a call answers because of its shape (method, body, query). */
type GenericErrorsOf<S extends EndpointSpec> =
  | (typeof EVERY_CALL_ERRORS)[number]
  | (S["method"] extends "GET" ? never : (typeof STATE_CHANGE_ERRORS)[number])
  | (S extends { body: z.ZodType } ? (typeof BODY_ERRORS)[number] : never)
  | (S extends { query: z.ZodType } ? (typeof QUERY_ERRORS)[number] : never);

export type EndpointOf<S extends EndpointSpec> = Omit<S, "errors"> & {
  errors: readonly (S["errors"][number] | GenericErrorsOf<S>)[];
};

/** Every error_code an endpoint can answer. */
export type ErrorsOf<E extends Endpoint> = E["errors"][number];

export function endpoint<const S extends EndpointSpec>(spec: S): EndpointOf<S> {
  const generic: ErrorCode[] = [...EVERY_CALL_ERRORS];
  if (spec.method !== "GET") generic.push(...STATE_CHANGE_ERRORS);
  if (spec.body) generic.push(...BODY_ERRORS);
  if (spec.query) generic.push(...QUERY_ERRORS);
  const errors = [...new Set([...spec.errors, ...generic])];
  return { ...spec, errors } as EndpointOf<S>;
}

/** Fills `:name` parameters of an endpoint path. */
export function pathFor(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** "true" in a query string. */
export const QueryFlag = z.enum(["true", "false"]).optional();
