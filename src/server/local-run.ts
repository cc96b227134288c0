// What makes a run "local": the development conveniences (the sandbox mailbox, the PayPal approval
// stand-in, demo accounts, sandbox payments, anything under /dev/) exist only then. A run is local
// when both the address it listens on and the public base URL are loopback addresses, so nothing
// outside this machine can reach it and nothing it links to points elsewhere. Forgetting a
// variable can therefore never switch them on in a deployment: a server that listens on a public
// address must name a PUBLIC_BASE_URL, and a non-loopback one turns them off (config.ts refuses
// asking for them).

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
