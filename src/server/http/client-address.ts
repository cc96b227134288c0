// Who is asking: the client address that rate limits key on, and the protocol the client used.
// Behind a reverse proxy the socket peer is the proxy, so every visitor would share one bucket; the
// proxy names the visitor in X-Forwarded-For. Anyone can send that header, so it is read only when
// the socket peer is a proxy named in TRUSTED_PROXIES, and only as far back as the chain of trusted
// proxies goes: the first address from the right that is not a trusted proxy is the client
// (docs/decisions/0010-client-address-and-sign-in-limits.md). Pure: no I/O, no configuration read.
import type { IncomingHttpHeaders } from "node:http";
import { BlockList, isIPv4, isIPv6, SocketAddress } from "node:net";

/** What a TRUSTED_PROXIES entry may be: an address, a CIDR range (IPv4 or IPv6), or `loopback`. */
export function isProxyEntry(entry: string): boolean {
  return proxyRanges(entry) !== null;
}

type Range = { address: string; prefix: number; family: "ipv4" | "ipv6" };

function proxyRanges(entry: string): Range[] | null {
  const text = entry.trim().toLowerCase();
  if (text === "loopback") {
    return [
      { address: "127.0.0.0", prefix: 8, family: "ipv4" },
      { address: "::1", prefix: 128, family: "ipv6" },
    ];
  }
  const slash = text.indexOf("/");
  // A bare address, or an IPv6 one in brackets; no port, no zone.
  const bare = (slash < 0 ? text : text.slice(0, slash)).replace(/^\[(.*)\]$/, "$1");
  if (!isIPv4(bare) && !(isIPv6(bare) && !bare.includes("%"))) return null;
  const address = canonicalAddress(bare);
  if (!address) return null;
  const family = isIPv4(address) ? "ipv4" : "ipv6";
  const max = family === "ipv4" ? 32 : 128;
  if (slash < 0) return [{ address, prefix: max, family }];
  const prefixText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  // An IPv4-mapped range (::ffff:10.0.0.0/104) becomes the IPv4 range it stands for.
  const prefix = Number(prefixText) - (family === "ipv4" && !isIPv4(bare) ? 96 : 0);
  if (prefix < 0 || prefix > max) return null;
  return [{ address, prefix, family }];
}

/** Socket peers whose canonical address a TrustedProxies keeps at most (TrustedProxies.peer). */
const PEERS_KEPT = 4096;

/** The proxies whose X-Forwarded-* headers are believed. */
export class TrustedProxies {
  private readonly list = new BlockList();
  private readonly peers = new Map<string, { peer: string; trusted: boolean }>();
  readonly size: number;

  /** Entries are checked by config.ts (isProxyEntry); one that is not an entry throws. */
  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const ranges = proxyRanges(entry);
      if (!ranges) throw new Error(`not a proxy address or range: ${entry}`);
      for (const range of ranges) this.list.addSubnet(range.address, range.prefix, range.family);
    }
    this.size = entries.length;
  }

  /** True for a canonical address (canonicalAddress) inside one of the ranges. */
  has(address: string): boolean {
    if (this.size === 0) return false;
    if (isIPv4(address)) return this.list.check(address, "ipv4");
    return isIPv6(address) && this.list.check(address, "ipv6");
  }

  /**
   * A socket peer's canonical address (or "unknown") and whether it is one of these proxies,
   * worked out once per address: a keep-alive connection sends many requests from one peer, and
   * the address patterns cost more than the rest of the lookup. At most PEERS_KEPT are kept.
   */
  peer(socketAddress: string): { peer: string; trusted: boolean } {
    let found = this.peers.get(socketAddress);
    if (!found) {
      const peer = canonicalAddress(socketAddress) ?? "unknown";
      found = { peer, trusted: this.has(peer) };
      if (this.peers.size >= PEERS_KEPT) this.peers.clear();
      this.peers.set(socketAddress, found);
    }
    return found;
  }
}

/**
 * One spelling per address, so that one client is one bucket: IPv6 compressed and lower case,
 * IPv4-mapped IPv6 (::ffff:1.2.3.4, as dual-stack sockets report IPv4 peers) as plain IPv4; the
 * forms proxies write in X-Forwarded-For are accepted too ([v6], [v6]:port, v4:port, a zone id).
 * Null when the text is not an IP address.
 */
export function canonicalAddress(value: string): string | null {
  let text = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed?.[1]) text = bracketed[1];
  else {
    const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(text);
    if (withPort?.[1]) text = withPort[1];
  }
  text = text.replace(/%.*$/, "");
  if (isIPv4(text)) return text;
  if (!isIPv6(text)) return null;
  const canonical = new SocketAddress({ address: text, family: "ipv6" }).address;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(canonical);
  return mapped?.[1] ?? canonical;
}

/**
 * The rate-limit key of a canonical address. IPv6 clients are keyed by their /64: one subscriber
 * or host usually holds a whole /64 and can pick a new address for every request.
 */
export function clientKey(address: string): string {
  // An IPv4 address (most requests) has no colon: no need for the IPv6 pattern.
  if (!address.includes(":") || !isIPv6(address)) return address;
  const groups = ipv6Groups(address).slice(0, 4);
  const prefix = new SocketAddress({ address: `${groups.join(":")}::`, family: "ipv6" }).address;
  return `${prefix}/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, in hex. */
function ipv6Groups(address: string): string[] {
  // A dotted IPv4 tail (::1.2.3.4) is two groups.
  const text = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)]
      .map((n) => n.toString(16))
      .join(":"),
  );
  const [head = "", tail] = text.split("::");
  const left = head ? head.split(":") : [];
  if (tail === undefined) return left;
  const right = tail ? tail.split(":") : [];
  return [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
}

export type Client = {
  /** The canonical client address (the socket peer when no trusted proxy is involved). */
  address: string;
  /** The protocol a trusted proxy says the client used ("https", "http"), else null. */
  forwardedProto: string | null;
};

function headerValues(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value])
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

/** The client of a request, from its socket peer and, behind trusted proxies, their headers. */
export function resolveClient(
  socketAddress: string | undefined,
  headers: IncomingHttpHeaders,
  proxies: TrustedProxies,
): Client {
  const { peer, trusted } = proxies.peer(socketAddress ?? "");
  if (!trusted) return { address: peer, forwardedProto: null };
  let address = peer;
  for (const hop of headerValues(headers["x-forwarded-for"]).reverse()) {
    const hopAddress = canonicalAddress(hop);
    // Left of an entry that is not an address, nothing can be told apart from what the client
    // wrote itself: the last proxy reached is the best answer.
    if (!hopAddress) break;
    address = hopAddress;
    if (!proxies.has(hopAddress)) break;
  }
  // The last value is the one the peer (a trusted proxy) wrote, whether it replaces the header or
  // appends to what it received; earlier values may come from the client.
  const proto = headerValues(headers["x-forwarded-proto"]).at(-1)?.toLowerCase() ?? null;
  return { address, forwardedProto: proto === "https" || proto === "http" ? proto : null };
}
