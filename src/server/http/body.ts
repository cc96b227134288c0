// Parsing and validating request bodies and queries (Fastify reads the bytes, app.ts): capped
// size, JSON or form, validated with the contract's zod schemas. Every failure becomes a 4xx
// answer, never a 500.
import type { z } from "zod";
import { MAX_JSON_DEPTH } from "../../contract/common.ts";
import { apiError, type FieldProblem } from "../../domain/errors/api-errors.ts";
import { HttpError } from "./http-error.ts";

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path ? `${path} ${issue.message}` : issue.message;
    })
    .join("; ");
}

/**
 * The bytes of a body Fastify read (its bodyLimit caps the largest any route takes), refused
 * with 413 when they are more than this route's `limit`: declared so, or so many arrived.
 */
export function bodyWithin(
  raw: Buffer | undefined,
  declaredLength: string | undefined,
  limit: number,
): Buffer {
  const declared = Number(declaredLength ?? Number.NaN);
  if ((Number.isFinite(declared) && declared > limit) || (raw?.length ?? 0) > limit) {
    throw new HttpError(apiError("body_too_large", limit), { Connection: "close" });
  }
  return raw ?? Buffer.alloc(0);
}

/**
 * Whether JSON text nests arrays and objects deeper than `max`, found by one pass over the text
 * (brackets inside strings do not count). Checked before parsing: every later step that walks the
 * value (zod, the idempotency fingerprint, JSON.stringify when it is stored) recurses, and a
 * body of 100,000 "[" would overflow their stack.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * Parses a body as JSON (application/json, or text/plain as browsers send beacons) or as a form
 * (application/x-www-form-urlencoded: values are strings, "true"/"false" become booleans).
 * An empty body is undefined. JSON nested deeper than MAX_JSON_DEPTH is refused (400).
 */
export function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  const type = (contentType ?? "application/json").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "application/x-www-form-urlencoded") {
    const out: Record<string, string | boolean> = {};
    for (const [key, value] of new URLSearchParams(raw.toString("utf8"))) {
      out[key] = value === "true" ? true : value === "false" ? false : value;
    }
    return out;
  }
  if (type !== "application/json" && type !== "text/plain" && !type.endsWith("+json")) {
    throw new HttpError(apiError("unsupported_media_type"));
  }
  const text = raw.toString("utf8");
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new HttpError(apiError("body_too_deep", MAX_JSON_DEPTH));
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(apiError("invalid_json"));
  }
}

/** The value at `path` inside `value` (undefined where the path leads nowhere). */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let here = value;
  for (const key of path) {
    if (here === null || typeof here !== "object") return undefined;
    here = (here as Record<PropertyKey, unknown>)[key];
  }
  return here;
}

/**
 * What is wrong with one field, in words a person can act on beside that field. The schema's own
 * refinements carry their words (issue.message); the library's generic texts ("Invalid input:
 * expected string, received undefined") are replaced by ours.
 */
function fieldMessage(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      return value === undefined || value === null || value === ""
        ? "This field is required."
        : `This must be ${issue.expected === "int" ? "a whole number" : `a ${issue.expected}`}.`;
    case "too_small":
      if (issue.origin === "string") {
        return issue.minimum === 1 && (value === "" || typeof value === "string")
          ? "This field is required."
          : `Use at least ${issue.minimum} characters.`;
      }
      if (issue.origin === "array" || issue.origin === "set") {
        return `Choose at least ${issue.minimum}.`;
      }
      return `This must be at least ${issue.minimum}.`;
    case "too_big":
      if (issue.origin === "string") return `Use at most ${issue.maximum} characters.`;
      if (issue.origin === "array" || issue.origin === "set") {
        return `Choose at most ${issue.maximum}.`;
      }
      return `This must be at most ${issue.maximum}.`;
    case "invalid_format":
      return issue.format === "email"
        ? "Enter an e-mail address such as name@example.com."
        : ownWords(issue.message);
    case "invalid_value":
      return issue.values.length <= 6
        ? `Choose one of: ${issue.values.map(String).join(", ")}.`
        : "Choose one of the values offered.";
    case "custom":
      return ownWords(issue.message);
    case "unrecognized_keys":
      return `Unknown field${issue.keys.length === 1 ? "" : "s"}: ${issue.keys.join(", ")}.`;
    default:
      return "This is not in the expected form.";
  }
}

/** A rule's own message ("must be a two-letter country code") as a sentence; zod's are replaced. */
function ownWords(message: string): string {
  if (/^(Invalid|Too (big|small)|Unrecognized)/.test(message)) {
    return "This is not in the expected form.";
  }
  const sentence = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** One problem per field (the first the schema found), with its path joined with ".". */
function fieldProblems(error: z.ZodError, value: unknown): FieldProblem[] {
  const out = new Map<string, FieldProblem>();
  for (const issue of error.issues) {
    const path = issue.path.map(String).join(".");
    // A problem with the whole body (none sent, not an object) names no field.
    if (path === "" || out.has(path) || out.size >= 50) continue;
    out.set(path, { path, message: fieldMessage(issue, valueAt(value, issue.path)) });
  }
  return [...out.values()];
}

export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: "body" | "query" | "params",
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const detail = describeIssues(result.error);
    const error = apiError(
      "invalid_request",
      value === undefined && where === "body" ? "a JSON body is required" : detail,
    );
    // Forms say what is wrong beside each field (issue 22, item 6).
    const fields = fieldProblems(result.error, value);
    throw new HttpError(fields.length > 0 ? { ...error, body: { ...error.body, fields } } : error);
  }
  return result.data;
}
