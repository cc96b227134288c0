// What makes a run "local": the development conveniences (the sandbox mailbox, the PayPal approval
// stand-in, demo accounts, sandbox payments, anything under /dev/) exist only then. A run is local
// when both the address it listens on and the public base URL are loopback addresses, so nothing
// outside this machine can reach it and nothing it links to points elsewhere. Forgetting a
// variable can therefore never switch them on in a deployment: a server that listens on a public
// address must name a PUBLIC_BASE_URL, and a non-loopback one turns them off (config.ts refuses
// asking for them).

import type { IncomingMessage } from "node:http";

/** True for localhost, *.localhost, 127.0.0.0/8 and ::1 (with or without brackets). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  if (/^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** True when the URL's host is a loopback address. */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** Headers that only a proxy (or a client pretending to be behind one) sends. */
function proxyHeader(name: string): boolean {
  return (
    name === "forwarded" ||
    name === "via" ||
    name === "x-real-ip" ||
    name.startsWith("x-forwarded-")
  );
}

/**
 * Whether this request may use a local run's conveniences (/dev/, the sandbox card form, the
 * demo accounts): the run is local (config.local) and the request came straight from this
 * machine to the address the server bound, not through a proxy. A reverse proxy on the same host
 * (nginx with HOST 127.0.0.1 and no PUBLIC_BASE_URL) otherwise passed them to anyone on the
 * internet. Refused:
 * - any Forwarded, X-Forwarded-*, X-Real-IP or Via header;
 * - a Host that is not a loopback name with the port the request arrived on: a proxy names its
 *   upstream (`proxy_pass http://app/` sends "app"), a rebinding page its own name, and a
 *   loopback Host without the port is a proxy's upstream on port 80;
 * - HTTP/1.0: nginx's default to its upstreams (proxy_http_version), which no browser sends;
 * - a peer that is not a loopback address.
 * Every local-only path asks this (Ctx.isLocalRequest), through no other test.
 */
export function isLocalRequest(local: boolean, req: IncomingMessage): boolean {
  if (!local) return false;
  if (req.httpVersion === "1.0") return false;
  if (!isLoopbackHost(req.socket.remoteAddress ?? "")) return false;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (proxyHeader((req.rawHeaders[i] ?? "").toLowerCase())) return false;
  }
  const host = req.headers.host ?? "";
  let parsed: URL;
  try {
    parsed = new URL(`http://${host}`);
  } catch {
    return false;
  }
  if (parsed.host !== host.toLowerCase() || !isLoopbackHost(parsed.hostname)) return false;
  return parsed.port !== "" && Number(parsed.port) === req.socket.localPort;
}
