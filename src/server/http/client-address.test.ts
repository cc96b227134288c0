import { describe, expect, it } from "vitest";
import {
  canonicalAddress,
  clientKey,
  isProxyEntry,
  resolveClient,
  TrustedProxies,
} from "./client-address.ts";

describe("proxy entries", () => {
  it("accepts addresses, CIDR ranges of both families and loopback", () => {
    for (const entry of [
      "loopback",
      "10.0.0.1",
      "10.0.0.0/8",
      " 192.168.1.0/24 ",
      "::1",
      "[::1]",
      "fd00::/8",
      "2001:db8::/32",
      "::ffff:10.0.0.0/104",
    ]) {
      expect(isProxyEntry(entry), entry).toBe(true);
    }
  });

  it("refuses names, ports, bad prefixes and junk", () => {
    for (const entry of [
      "",
      "proxy.internal",
      "10.0.0.1:8080",
      "10.0.0.0/33",
      "10.0.0.0/",
      "10.0.0.0/-1",
      "fd00::/129",
      "256.0.0.1",
      "fe80::1%eth0",
      "*",
    ]) {
      expect(isProxyEntry(entry), entry).toBe(false);
    }
  });

  it("matches members of the ranges only", () => {
    const proxies = new TrustedProxies(["loopback", "10.0.0.0/8", "fd00::/8"]);
    expect(proxies.has("127.0.0.1")).toBe(true);
    expect(proxies.has("127.8.9.10")).toBe(true);
    expect(proxies.has("::1")).toBe(true);
    expect(proxies.has("10.200.3.4")).toBe(true);
    expect(proxies.has("fd12:3456::1")).toBe(true);
    expect(proxies.has("11.0.0.1")).toBe(false);
    expect(proxies.has("fe80::1")).toBe(false);
    expect(proxies.has("unknown")).toBe(false);
    expect(new TrustedProxies([]).has("127.0.0.1")).toBe(false);
  });
});

describe("canonicalAddress", () => {
  it("spells one address one way", () => {
    expect(canonicalAddress("203.0.113.7")).toBe("203.0.113.7");
    expect(canonicalAddress("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(canonicalAddress("::FFFF:cb00:7107")).toBe("203.0.113.7");
    expect(canonicalAddress("2001:0DB8:0:0:0:0:0:1")).toBe("2001:db8::1");
    expect(canonicalAddress("[2001:db8::1]:443")).toBe("2001:db8::1");
    expect(canonicalAddress("[2001:db8::1]")).toBe("2001:db8::1");
    expect(canonicalAddress("203.0.113.7:51234")).toBe("203.0.113.7");
    expect(canonicalAddress("fe80::1%eth0")).toBe("fe80::1");
  });

  it("is null for anything that is not an address", () => {
    for (const value of ["", "unknown", "_hidden", "example.com", "1.2.3", "1.2.3.4.5", "::g"]) {
      expect(canonicalAddress(value), value).toBeNull();
    }
  });
});

describe("clientKey", () => {
  it("keys IPv4 by address and IPv6 by its /64", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(clientKey("::1")).toBe("::/64");
  });
});

describe("resolveClient", () => {
  const proxies = new TrustedProxies(["10.0.0.0/8", "::1"]);
  const resolve = (peer: string, headers: Record<string, string | string[]> = {}) =>
    resolveClient(peer, headers, proxies);

  it("uses the socket peer and ignores forwarded headers from anyone else", () => {
    expect(
      resolve("198.51.100.2", {
        "x-forwarded-for": "203.0.113.7",
        "x-forwarded-proto": "https",
      }),
    ).toEqual({ address: "198.51.100.2", forwardedProto: null });
    expect(resolve("::ffff:198.51.100.2")).toEqual({
      address: "198.51.100.2",
      forwardedProto: null,
    });
  });

  it("takes the first untrusted address from the right behind trusted proxies", () => {
    expect(resolve("10.0.0.5", { "x-forwarded-for": "203.0.113.7" }).address).toBe("203.0.113.7");
    // The client wrote 1.1.1.1 itself; 203.0.113.7 is who connected to the first proxy.
    expect(
      resolve("10.0.0.5", { "x-forwarded-for": "1.1.1.1, 203.0.113.7, 10.0.0.9" }).address,
    ).toBe("203.0.113.7");
    expect(resolve("::1", { "x-forwarded-for": "[2001:db8::7]:5000" }).address).toBe("2001:db8::7");
    expect(resolve("::ffff:10.0.0.5", { "x-forwarded-for": "203.0.113.7" }).address).toBe(
      "203.0.113.7",
    );
    // Headers sent twice count as one list.
    expect(
      resolve("10.0.0.5", { "x-forwarded-for": ["1.1.1.1", "203.0.113.7, 10.0.0.9"] }).address,
    ).toBe("203.0.113.7");
  });

  it("falls back to the last trusted proxy when the chain has no client or a bad entry", () => {
    expect(resolve("10.0.0.5").address).toBe("10.0.0.5");
    expect(resolve("10.0.0.5", { "x-forwarded-for": "" }).address).toBe("10.0.0.5");
    expect(resolve("10.0.0.5", { "x-forwarded-for": "10.0.0.8, 10.0.0.9" }).address).toBe(
      "10.0.0.8",
    );
    expect(resolve("10.0.0.5", { "x-forwarded-for": "unknown" }).address).toBe("10.0.0.5");
    // Left of garbage nothing is trustworthy: 203.0.113.7 may be the client's own invention.
    expect(resolve("10.0.0.5", { "x-forwarded-for": "203.0.113.7, junk, 10.0.0.9" }).address).toBe(
      "10.0.0.9",
    );
  });

  it("reads X-Forwarded-Proto from trusted proxies only, the value the peer wrote", () => {
    expect(resolve("10.0.0.5", { "x-forwarded-proto": "https" }).forwardedProto).toBe("https");
    expect(resolve("10.0.0.5", { "x-forwarded-proto": "HTTP" }).forwardedProto).toBe("http");
    expect(resolve("10.0.0.5", { "x-forwarded-proto": "https, http" }).forwardedProto).toBe("http");
    expect(resolve("10.0.0.5", { "x-forwarded-proto": "gopher" }).forwardedProto).toBeNull();
    expect(resolve("203.0.113.7", { "x-forwarded-proto": "https" }).forwardedProto).toBeNull();
  });

  it("names an unknown peer 'unknown'", () => {
    expect(resolveClient(undefined, {}, proxies).address).toBe("unknown");
  });
});
