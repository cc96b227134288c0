// Security headers and the cross-site check (ARCHITECTURE.md "Errors and bad input", issue
// "Bad input and security").
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";

export type PaymentOrigins = { stripe: boolean; paypal: boolean };

/** Headers every answer carries. */
const BASE_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Cross-Origin-Opener-Policy": "same-origin-allow-popups",
};

/**
 * One year, and the checkout host's subdomains too: a plain-http subdomain could otherwise set
 * cookies for this host (cookie tossing). It covers only names under the checkout's own host, so
 * it cannot force https on sibling sites. No `preload`: that is a commitment for the whole domain
 * that its owner makes, not this server.
 */
export const HSTS = "max-age=31536000; includeSubDomains";

/**
 * The headers of every answer under this public base URL: BASE_HEADERS, and HSTS when the public
 * URL is https. It is sent even when the request itself came as plain http from a proxy that
 * ended TLS; browsers heed it only over https, so a plain-http local run never gets it.
 */
export function baseHeaders(publicBaseUrl: string): Record<string, string> {
  if (!publicBaseUrl.startsWith("https:")) return BASE_HEADERS;
  return { ...BASE_HEADERS, "Strict-Transport-Security": HSTS };
}

function frameAncestors(hubOrigins: readonly string[]): string {
  return ["'self'", ...hubOrigins].join(" ");
}

/** JSON answers: nothing to render, never framed. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/** The server's own small pages (mailbox, PayPal sandbox approval, logout): no scripts at all. */
export const OWN_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function paymentSources(payments: PaymentOrigins) {
  const script: string[] = [];
  const frame: string[] = [];
  const connect: string[] = [];
  if (payments.stripe) {
    script.push("https://js.stripe.com");
    frame.push("https://js.stripe.com", "https://hooks.stripe.com");
    connect.push("https://api.stripe.com");
  }
  if (payments.paypal) {
    script.push("https://www.paypal.com", "https://www.sandbox.paypal.com");
    frame.push("https://www.paypal.com", "https://www.sandbox.paypal.com");
    connect.push("https://www.paypal.com", "https://www.sandbox.paypal.com");
  }
  return { script, frame, connect };
}

/** Pages that take payments: the checkout under /cart. Only they may load the providers' code. */
export function isPaymentPage(path: string): boolean {
  return path === "/cart" || path.startsWith("/cart/") || path.startsWith("/cart#");
}

/**
 * The policy of a static page: scripts only from this origin or by the hash of an inline script
 * of that very page; the payment providers' origins only on payment pages.
 */
export function staticPageCsp(options: {
  inlineScriptHashes: readonly string[];
  paymentPage: boolean;
  payments: PaymentOrigins;
  hubOrigins: readonly string[];
}): string {
  const providers = options.paymentPage
    ? paymentSources(options.payments)
    : { script: [], frame: [], connect: [] };
  const hashes = options.inlineScriptHashes.map((h) => `'${h}'`);
  return [
    "default-src 'self'",
    ["script-src 'self'", ...hashes, ...providers.script].join(" "),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    ["connect-src 'self'", ...providers.connect].join(" "),
    providers.frame.length > 0 ? `frame-src ${providers.frame.join(" ")}` : "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors(options.hubOrigins)}`,
  ].join("; ");
}

/** sha256 hashes (CSP source form, without quotes) of the inline scripts of an HTML page. */
export function inlineScriptHashes(htmlText: string): string[] {
  const hashes = new Set<string>();
  const pattern = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
  for (const match of htmlText.matchAll(pattern)) {
    const attributes = match[1] ?? "";
    const content = match[2] ?? "";
    if (/\bsrc\s*=/i.test(attributes)) continue;
    if (/\btype\s*=\s*["']?application\/(ld\+)?json/i.test(attributes)) continue;
    hashes.add(`sha256-${createHash("sha256").update(content, "utf8").digest("base64")}`);
  }
  return [...hashes];
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function isStateChanging(method: string | undefined): boolean {
  return STATE_CHANGING.has(method ?? "GET");
}

/**
 * True when a state-changing request comes from another site. Browsers send Sec-Fetch-Site (all
 * current ones) or at least Origin on cross-origin POSTs; a request with neither is not from a
 * browser page (curl, server to server) and is let through: it carries no ambient cookies of a
 * victim's browser.
 */
export function isCrossSite(
  req: IncomingMessage,
  /** The origins of this server (`ownOrigins`), asked for only when the request names one. */
  ownOrigins: () => ReadonlySet<string>,
): boolean {
  const site = req.headers["sec-fetch-site"];
  if (typeof site === "string") {
    // "none" is a navigation the user started (address bar, bookmark): not a forged request.
    if (site !== "same-origin" && site !== "none") return true;
  }
  const origin = req.headers.origin;
  if (typeof origin === "string") {
    if (origin === "null") return true;
    return !ownOrigins().has(origin.toLowerCase());
  }
  return false;
}

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/**
 * The origins a same-origin request may come from: the configured public origin. The Host header
 * is no evidence: with DNS rebinding a page of another site reaches this server under its own
 * name, so its Origin and its Host agree. A local run (config.local) also accepts the loopback
 * names of its port (the public URL's, and the one the request arrived on): `npm start` users and
 * the browser tests reach it as localhost or 127.0.0.1, and a page can only have such an origin if
 * it was served by this machine on that port.
 */
export function ownOrigins(
  config: { publicBaseUrl: string; local: boolean },
  localPort: number | undefined,
): Set<string> {
  const origins = new Set([config.publicBaseUrl.toLowerCase()]);
  if (!config.local) return origins;
  const base = new URL(config.publicBaseUrl);
  const ports = new Set([base.port, ...(localPort ? [String(localPort)] : [])]);
  for (const port of ports) {
    for (const name of LOOPBACK_NAMES) {
      origins.add(new URL(`${base.protocol}//${name}${port ? `:${port}` : ""}`).origin);
    }
  }
  return origins;
}
