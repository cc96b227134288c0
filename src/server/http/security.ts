// Security headers and the cross-site check (ARCHITECTURE.md "Errors and bad input", issue
// "Bad input and security").
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";

export type PaymentOrigins = { stripe: boolean; paypal: boolean };

/** Headers every answer carries. */
export const BASE_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Cross-Origin-Opener-Policy": "same-origin-allow-popups",
};

export function frameAncestors(hubOrigins: readonly string[]): string {
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
export function isCrossSite(req: IncomingMessage, ownOrigins: ReadonlySet<string>): boolean {
  const site = req.headers["sec-fetch-site"];
  if (typeof site === "string") {
    // "none" is a navigation the user started (address bar, bookmark): not a forged request.
    if (site !== "same-origin" && site !== "none") return true;
  }
  const origin = req.headers.origin;
  if (typeof origin === "string") {
    if (origin === "null") return true;
    return !ownOrigins.has(origin.toLowerCase());
  }
  return false;
}

/** This server's own origins: the public base URL and the host the request was sent to. */
export function ownOriginsFor(
  req: IncomingMessage,
  publicBaseUrl: string,
  secure: boolean,
): Set<string> {
  const origins = new Set([publicBaseUrl.toLowerCase()]);
  const host = req.headers.host;
  if (host) origins.add(`${secure ? "https" : "http"}://${host.toLowerCase()}`);
  return origins;
}
