// Shapes shared by every endpoint of the contract. Browser-safe: zod only, no Node imports.
import { z } from "zod";

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

/** Every error answer (4xx and 5xx). */
export const ErrorBody = z.object({ message: z.string(), error_code: z.string() });
export type ErrorBody = z.output<typeof ErrorBody>;

export const Success = z.object({ success: z.literal(true) });
/** Answers where `success: false` is a normal outcome (spec sections 5 and 7). */
export const SuccessFlag = z.object({ success: z.boolean() });

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** Request bodies above this size are refused with 413 body_too_large. */
export const MAX_BODY_BYTES = 64 * 1024;
/** JSON bodies nesting arrays and objects deeper than this are refused with 400 body_too_deep. */
export const MAX_JSON_DEPTH = 32;

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
  /** Statuses below 500 are answers the client reads (the user info call). */
  acceptsBelow500?: boolean;
};

export function endpoint<const E extends Endpoint>(e: E): E {
  return e;
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
