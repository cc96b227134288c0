// Serves the built static site (dist/). Small on purpose: files are read once, compressed once
// (gzip and brotli) and kept in memory, which suits a site of a few hundred small files. A page's
// inline scripts are hashed once too, when it is loaded, for its Content-Security-Policy: the app
// (app.ts) turns the hashes into the page's policy through `StaticServe.headersFor`.
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, resolve, sep } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { inlineScriptHashes } from "./http/security.ts";

/** What the app asks of one answer (app.ts): another status, and the headers of a page. */
export type StaticServe = {
  /** Replaces 200 (the site's 404 page is served with 404); such answers are not cached. */
  status?: number;
  /** Headers of an HTML page, from the hashes of its inline scripts (its CSP). */
  headersFor?: (page: { inlineScriptHashes: readonly string[] }) => Record<string, string>;
};

export type StaticHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  serve?: StaticServe,
) => boolean | Promise<boolean>;

type Encoding = "br" | "gzip" | "identity";
type Entry = {
  type: string;
  etag: string;
  bodies: Partial<Record<Encoding, Buffer>>;
  /** For an HTML page: the CSP hashes of its inline scripts, computed once at load. */
  inlineScriptHashes: readonly string[] | null;
};

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
  ".pdf": "application/pdf",
};

// Images, fonts and wasm are already compressed; compressing them again only costs CPU.
const compressible = /^(text\/|application\/(json|xml|manifest\+json)|image\/svg)/;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function load(path: string): Entry {
  const body = readFileSync(path);
  const type = types[extname(path).toLowerCase()] ?? "application/octet-stream";
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}`;
  const bodies: Entry["bodies"] = { identity: body };
  const hashes = type.startsWith("text/html") ? inlineScriptHashes(body.toString("utf8")) : null;
  if (compressible.test(type) && body.length > 256) {
    bodies.gzip = gzipSync(body, { level: 9 });
    bodies.br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
  }
  return { type, etag, bodies, inlineScriptHashes: hashes };
}

/** The best encoding the client accepts (a `q=0` refuses one). */
function pickEncoding(accept: string | undefined, entry: Entry): Encoding {
  const accepted = new Set(
    (accept ?? "")
      .split(",")
      .map((part) => part.trim().toLowerCase())
      .filter((part) => !/;\s*q=0(\.0*)?$/.test(part))
      .map((part) => part.split(";")[0]),
  );
  if (entry.bodies.br && accepted.has("br")) return "br";
  if (entry.bodies.gzip && accepted.has("gzip")) return "gzip";
  return "identity";
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  entry: Entry,
  status: number,
  cache: string,
  serve: StaticServe = {},
) {
  if (serve.status !== undefined) {
    status = serve.status;
    cache = "no-store";
  }
  if (entry.inlineScriptHashes && serve.headersFor) {
    const headers = serve.headersFor({ inlineScriptHashes: entry.inlineScriptHashes });
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  }
  const encoding = pickEncoding(req.headers["accept-encoding"], entry);
  const body = entry.bodies[encoding] ?? Buffer.alloc(0);
  const etag = `${entry.etag}${encoding === "identity" ? "" : `-${encoding}`}"`;
  res.setHeader("Content-Type", entry.type);
  res.setHeader("Cache-Control", cache);
  res.setHeader("ETag", etag);
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (Object.keys(entry.bodies).length > 1) res.setHeader("Vary", "Accept-Encoding");
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  const matches = req.headers["if-none-match"]?.split(",").some((tag) => tag.trim() === etag);
  if (status === 200 && matches) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = status;
  res.setHeader("Content-Length", body.length);
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * A request handler for the files under `distDir`. It answers GET and HEAD for files that exist
 * (`/plans` and `/plans/` find `plans/index.html` or `plans.html`) and returns true; for anything
 * else it writes nothing and returns false, so the caller can route the request elsewhere.
 */
export function createStaticHandler(
  distDir: string,
): (req: IncomingMessage, res: ServerResponse, serve?: StaticServe) => boolean {
  const root = resolve(distDir);
  const cache = new Map<string, Entry>();

  return (req, res, serve) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    } catch {
      return false;
    }
    const base = resolve(root, `.${pathname}`);
    if (base !== root && !base.startsWith(root + sep)) return false;
    const file = [base, join(base, "index.html"), `${base}.html`].find(isFile);
    if (!file) return false;
    let entry = cache.get(file);
    if (!entry) {
      entry = load(file);
      cache.set(file, entry);
    }
    // Hashed build assets never change under the same name; pages must be revalidated.
    const cacheControl = pathname.startsWith("/_astro/")
      ? "public, max-age=31536000, immutable"
      : "public, max-age=0, must-revalidate";
    send(req, res, entry, 200, cacheControl, serve);
    return true;
  };
}

/** Answers 404 with `distDir/404.html` when the build has one, plain text otherwise. */
export function sendNotFound(distDir: string, req: IncomingMessage, res: ServerResponse): void {
  const page = join(resolve(distDir), "404.html");
  if (isFile(page)) {
    send(req, res, load(page), 404, "no-store");
    return;
  }
  res.statusCode = 404;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.end(req.method === "HEAD" ? undefined : "Not found\n");
}
