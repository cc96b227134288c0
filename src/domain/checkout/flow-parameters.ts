// flowParameters (spec 2.4): base64-encoded JSON holding a location to return to. It arrives in
// a URL anyone can craft, so it is bounded before it is decoded, its keys are checked before any
// code spreads or merges the object, and its location is only ever one of the product's own
// paths (safeRedirectPath).
import { safeRedirectPath } from "../account/redirects.ts";

export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { readonly [key: string]: JsonValue };

export type FlowParameters = {
  /** Where the flow returns to: a path of this site, or null when absent or refused. */
  location: string | null;
  /** The whole decoded object, for the flow that sent it. */
  values: { readonly [key: string]: JsonValue };
};

/** Encoded length limit (4 KB): a location and a few flags need far less. */
export const MAX_FLOW_PARAMETERS_LENGTH = 4096;
/** Nesting limit: the object holds a location and flags, never deep structures. */
const MAX_DEPTH = 8;
// Keys that reach an object's prototype when the object is later merged or assigned.
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** base64 or base64url to UTF-8 text; null when it is neither or not UTF-8. */
function decodeBase64(encoded: string): string | null {
  // A "+" in a query string reads back as a space when the sender did not encode it.
  let text = encoded.trim().replace(/ /g, "+").replace(/-/g, "+").replace(/_/g, "/");
  text = text.replace(/={1,2}$/, "");
  if (!/^[A-Za-z0-9+/]*$/.test(text) || text.length % 4 === 1) return null;
  text += "=".repeat((4 - (text.length % 4)) % 4);
  try {
    const binary = atob(text);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** True when no object at any depth has a forbidden key and nesting stays within the limit. */
function isSafeJson(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== "object") return true;
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) return value.every((item) => isSafeJson(item, depth + 1));
  // JSON.parse makes "__proto__" an own key, so Object.keys sees it.
  return Object.keys(value).every(
    (key) =>
      !FORBIDDEN_KEYS.has(key) && isSafeJson((value as Record<string, unknown>)[key], depth + 1),
  );
}

function field(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/**
 * The location as a path of this site. Either a string ("/cart#checkout") or an object of
 * location parts ({ pathname, search, hash }), as a page's window.location serialises.
 */
function resolveLocation(location: unknown, ownOrigin: string | undefined): string | null {
  if (typeof location === "string") return safeRedirectPath(location, ownOrigin);
  if (location === null || typeof location !== "object" || Array.isArray(location)) return null;
  const parts = location as Record<string, unknown>;
  const pathname = field(parts.pathname);
  const search = field(parts.search);
  const hash = field(parts.hash);
  const joined =
    pathname +
    (search && !search.startsWith("?") ? `?${search}` : search) +
    (hash && !hash.startsWith("#") ? `#${hash}` : hash);
  return safeRedirectPath(joined, ownOrigin);
}

/**
 * Decodes flowParameters; null when it is too long, not base64 of UTF-8 JSON, not an object,
 * nested too deep, or has a __proto__, constructor or prototype key at any depth. A location
 * that is not one of the product's own paths is dropped (null), not the whole object.
 */
export function decodeFlowParameters(encoded: string, ownOrigin?: string): FlowParameters | null {
  if (encoded.length === 0 || encoded.length > MAX_FLOW_PARAMETERS_LENGTH) return null;
  const json = decodeBase64(encoded);
  if (json === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  if (!isSafeJson(parsed, 1)) return null;
  const values = parsed as { readonly [key: string]: JsonValue };
  return { location: resolveLocation(values.location, ownOrigin), values };
}
