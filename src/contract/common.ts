// Shapes shared by every endpoint of the contract. Browser-safe: zod only, no Node imports.
import { z } from "zod";
import type { Route } from "./endpoints.ts";
import {
  BODY_ERRORS,
  type ErrorCode,
  EVERY_CALL_ERRORS,
  IDEMPOTENT_ERRORS,
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

export type { Method, Route, RouteFlags, RouteLimit } from "./endpoints.ts";

/** What `index.ts` adds to a route of the table: its schemas and its own error codes. */
export type Schemas = {
  /** Query parameters (strings). */
  query?: z.ZodType;
  /** JSON (or form) body. */
  body?: z.ZodType;
  /** The `:name` path parameters (strings); without it each is a non-empty string. */
  params?: z.ZodType;
  /** 2xx answer. */
  response: z.ZodType;
  /** For a route flagged `acceptsBelow500`: the non-2xx answer below 500 the client reads. */
  answerBelow500?: z.ZodType;
  /**
   * Every error_code this call can answer, the generic ones included (`withSchemas()` adds those
   * its method, schemas and flags imply). The server checks its answers against it when it
   * validates responses (tests and local runs).
   */
  errors: readonly ErrorCode[];
};

/** A route of the table with its schemas: what the server registers and the tests call. */
export type Endpoint = Route & Schemas;

/** The generic codes a call answers because of its shape (method, body, query, flags). */
type GenericErrorsOf<R extends Route, S extends Schemas> =
  | (typeof EVERY_CALL_ERRORS)[number]
  | (R["method"] extends "GET" ? never : (typeof STATE_CHANGE_ERRORS)[number])
  | (S extends { body: z.ZodType } ? (typeof BODY_ERRORS)[number] : never)
  | (S extends { query: z.ZodType } ? (typeof QUERY_ERRORS)[number] : never)
  | (S extends { params: z.ZodType } ? "invalid_request" : never)
  | (R extends { auth: true } ? "not_authenticated" : never)
  | (R extends { limit: string } ? "rate_limited" : never)
  | (R extends { accountLock: string } ? "account_busy" : never)
  | (R extends { idempotent: true } ? (typeof IDEMPOTENT_ERRORS)[number] : never);

export type EndpointOf<R extends Route, S extends Schemas> = R &
  Omit<S, "errors"> & { errors: readonly (S["errors"][number] | GenericErrorsOf<R, S>)[] };

/** Every error_code an endpoint can answer. */
export type ErrorsOf<E extends Endpoint> = E["errors"][number];

/** The schemas of every route of a table: a route without them does not compile. */
export type SchemasFor<T extends Record<string, Route>> = { [K in keyof T]: Schemas };

/**
 * The route table with each entry's schemas and complete error list. Every route must have its
 * schemas (a missing one is a compile error, and a run-time one for untyped callers); the generic
 * codes that the method, the schemas and the flags imply are added here.
 */
export function withSchemas<const T extends Record<string, Route>, const S extends SchemasFor<T>>(
  table: T,
  schemas: S,
): { [K in keyof T]: EndpointOf<T[K], S[K]> } {
  const out: Record<string, Endpoint> = {};
  for (const [name, route] of Object.entries(table)) {
    const spec = schemas[name as keyof T] as Schemas | undefined;
    if (!spec?.response) throw new Error(`The route ${name} has no schemas`);
    out[name] = endpointOf(route, spec);
  }
  for (const name of Object.keys(schemas)) {
    if (!(name in table)) throw new Error(`Schemas for ${name}, which the route table lacks`);
  }
  return out as { [K in keyof T]: EndpointOf<T[K], S[K]> };
}

/** One route with its schemas and complete error list (tests use it for probe routes). */
export function endpointOf<const R extends Route, const S extends Schemas>(
  route: R,
  spec: S,
): EndpointOf<R, S> {
  const generic: ErrorCode[] = [...EVERY_CALL_ERRORS];
  if (route.method !== "GET") generic.push(...STATE_CHANGE_ERRORS);
  if (spec.body) generic.push(...BODY_ERRORS);
  if (spec.query) generic.push(...QUERY_ERRORS);
  if (spec.params) generic.push("invalid_request");
  if (route.auth) generic.push("not_authenticated");
  if (route.limit) generic.push("rate_limited");
  if (route.accountLock) generic.push("account_busy");
  if (route.idempotent) generic.push(...IDEMPOTENT_ERRORS);
  const errors = [...new Set([...spec.errors, ...generic])];
  return { ...route, ...spec, errors } as EndpointOf<R, S>;
}

/** "true" in a query string. */
export const QueryFlag = z.enum(["true", "false"]).optional();
