import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { testClock } from "../clock.ts";
import { DatabaseRateStore, RateLimiter } from "./rate-limit.ts";
import { RouteTable } from "./route-table.ts";
import { inlineScriptHashes, isPaymentPage, staticPageCsp } from "./security.ts";

describe("RouteTable", () => {
  const router = new RouteTable<string>();
  router.add("GET", "/api/2/wevideouser/info/", "info");
  router.add("DELETE", "/api/4/user/", "delete");
  router.add("PUT", "/api/4/user", "edit");
  router.add("POST", "/api/5/invites/:code", "accept");
  router.add("GET", "/api/5/invites/:code", "show");

  it("matches with or without the trailing slash", () => {
    expect(router.match("GET", "/api/2/wevideouser/info")).toMatchObject({
      kind: "found",
      handler: "info",
    });
    expect(router.match("GET", "/api/2/wevideouser/info/")).toMatchObject({
      kind: "found",
      handler: "info",
    });
    expect(router.match("DELETE", "/api/4/user")).toMatchObject({
      kind: "found",
      handler: "delete",
    });
    expect(router.match("PUT", "/api/4/user/")).toMatchObject({ kind: "found", handler: "edit" });
  });

  it("decodes parameters and reports the allowed methods", () => {
    expect(router.match("POST", "/api/5/invites/a%20b")).toEqual({
      kind: "found",
      handler: "accept",
      params: { code: "a b" },
    });
    // The table lists the allowed methods in one fixed order (GET first), not the order added.
    expect(router.match("PATCH", "/api/5/invites/x")).toEqual({
      kind: "method-not-allowed",
      allowed: ["GET", "POST"],
    });
    expect(router.match("GET", "/api/5/invites/%E0%A4%A")).toMatchObject({ kind: "none" });
    expect(router.match("GET", "/nothing")).toEqual({ kind: "none" });
  });

  it("refuses a route defined twice", () => {
    expect(() => router.add("GET", "/api/2/wevideouser/info", "again")).toThrow(/defined twice/);
  });

  it("has one path per contract endpoint", () => {
    const seen = new Set(Object.values(api).map((e) => `${e.method} ${e.path.replace(/\/$/, "")}`));
    expect(seen.size).toBe(Object.keys(api).length);
  });
});

describe("RateLimiter", () => {
  it("refills over its window", async () => {
    const clock = testClock(0);
    const limiter = new RateLimiter(clock);
    for (let i = 0; i < 5; i++)
      expect(await limiter.take("forgotPerIp", "a")).toEqual({ ok: true });
    expect(await limiter.take("forgotPerIp", "a")).toEqual({ ok: false, retryAfterSeconds: 12 });
    expect(await limiter.take("forgotPerIp", "b")).toEqual({ ok: true });
    clock.advance(12_000);
    expect(await limiter.take("forgotPerIp", "a")).toEqual({ ok: true });
  });

  it("tells a full bucket, and takes back a token given back", async () => {
    const clock = testClock(0);
    const limiter = new RateLimiter(clock);
    expect(await limiter.isFull("forgotPerIp", "a")).toBe(true);
    await limiter.take("forgotPerIp", "a");
    expect(await limiter.isFull("forgotPerIp", "a")).toBe(false);
    expect(await limiter.secondsUntilFull("forgotPerIp", "a")).toBe(12);
    await limiter.give("forgotPerIp", "a");
    expect(await limiter.isFull("forgotPerIp", "a")).toBe(true);
    await limiter.give("forgotPerIp", "a");
    for (let i = 0; i < 5; i++)
      expect(await limiter.take("forgotPerIp", "a")).toEqual({ ok: true });
    expect((await limiter.take("forgotPerIp", "a")).ok).toBe(false);
  });
});

describe("content security policy", () => {
  it("hashes inline scripts only", () => {
    const html =
      '<script>a()</script><script src="/x.js"></script><script type="application/ld+json">{}</script><SCRIPT type="module">b()</SCRIPT>';
    const hash = (s: string) => `sha256-${createHash("sha256").update(s).digest("base64")}`;
    expect(inlineScriptHashes(html)).toEqual([hash("a()"), hash("b()")]);
  });

  it("adds the payment providers on payment pages only", () => {
    const options = {
      inlineScriptHashes: [],
      payments: { stripe: true, paypal: true },
      hubOrigins: [],
    };
    expect(staticPageCsp({ ...options, paymentPage: false })).not.toMatch(/stripe|paypal/);
    const pay = staticPageCsp({ ...options, paymentPage: true });
    expect(pay).toContain("script-src 'self' https://js.stripe.com https://www.paypal.com");
    expect(pay).toContain("frame-ancestors 'self'");
    expect(isPaymentPage("/cart/checkout_summary")).toBe(true);
    expect(isPaymentPage("/cartoons")).toBe(false);
  });
});

describe("RateLimiter on the shared database (decision 0028)", () => {
  it("counts, refills, gives back and tells full as the memory store does", async () => {
    const { openPglite } = await import("../testing/pglite.ts");
    const { migrate } = await import("../db/migrations.ts");
    const db = await openPglite();
    try {
      await migrate(db, 0);
      const clock = testClock(0);
      const shared = new RateLimiter(clock, 1, new DatabaseRateStore(db));
      // A second server on the same database: one budget between them.
      const other = new RateLimiter(clock, 1, new DatabaseRateStore(db));
      expect(await shared.isFull("forgotPerIp", "a")).toBe(true);
      for (let i = 0; i < 5; i++) {
        expect(await (i % 2 ? other : shared).take("forgotPerIp", "a")).toEqual({ ok: true });
      }
      expect(await other.take("forgotPerIp", "a")).toEqual({ ok: false, retryAfterSeconds: 12 });
      expect(await shared.take("forgotPerIp", "b")).toEqual({ ok: true });
      expect(await shared.secondsUntilFull("forgotPerIp", "a")).toBe(60);
      await other.give("forgotPerIp", "a");
      expect(await shared.take("forgotPerIp", "a")).toEqual({ ok: true });
      clock.advance(12_000);
      expect(await other.take("forgotPerIp", "a")).toEqual({ ok: true });
      clock.advance(60_000);
      expect(await shared.isFull("forgotPerIp", "a")).toBe(true);
      // Parallel takes never pass the limit.
      const parallel = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? other : shared).take("forgotPerIp", "c")),
      );
      expect(parallel.filter((d) => d.ok)).toHaveLength(5);
    } finally {
      await db.close();
    }
  }, 30_000);
});
