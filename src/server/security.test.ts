import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, ErrorBody } from "../contract/index.ts";
import { createStaticHandler } from "./static-files.ts";
import { newKey, startTestServer, type TestServer } from "./testing/harness.ts";
import { forgotAnswer } from "./testing/human-answer.ts";

const INLINE = "window.__boot = 1;";
const PAGE = `<!doctype html><html><head><script>${INLINE}</script><script type="module" src="/_astro/x.js"></script></head><body>hi</body></html>`;

// The production static handler over a built site of three pages (a page padded past the size
// the handler compresses, so that gzip answers are tried too).
const distDir = mkdtempSync(join(tmpdir(), "security-dist-"));
const padded = PAGE.replace("hi", `hi${" ".repeat(400)}`);
writeFileSync(join(distDir, "index.html"), padded);
writeFileSync(join(distDir, "cart.html"), padded);
writeFileSync(join(distDir, "404.html"), "<!doctype html><h1>Missing</h1>");
const staticHandler = createStaticHandler(distDir);

let server: TestServer;
let strict: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    staticHandler,
    env: { HUB_ORIGINS: "https://hub.example.com", STRIPE_PUBLISHABLE_KEY: "pk_test_abc" },
  });
  strict = await startTestServer({ rateLimitScale: 1, seed: true });
});
afterAll(async () => {
  await server.close();
  await strict.close();
  rmSync(distDir, { recursive: true, force: true });
});

describe("cross-site requests", () => {
  it("refuses state changes from other sites and allows same-origin ones", async () => {
    const client = await server.signedIn("free@demo.test");
    const post = (headers: Record<string, string>) =>
      client.fetch(api.instrumentation.path, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ eventName: "x" }),
      });
    const attempts: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "null" },
    ];
    for (const headers of attempts) {
      const response = await post(headers);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error_code: "cross_site" });
    }
    expect(
      (await post({ origin: server.running.url, "sec-fetch-site": "same-origin" })).status,
    ).toBe(200);
  });

  it("never changes state on GET", async () => {
    const response = await server.client().fetch(api.upgrade.path);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(ErrorBody.parse(await response.json()).error_code).toBe("method_not_allowed");
  });
});

describe("bad input", () => {
  const send = (
    path: string,
    body: string,
    headers: Record<string, string> = { "content-type": "application/json" },
  ) => fetch(`${server.running.url}${path}`, { method: "POST", headers, body });

  it("answers malformed JSON, wrong types and unsupported types with 4xx error bodies", async () => {
    const malformed = await send(api.signIn.path, "{ not json");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({
      message:
        "The request body is not valid JSON. Send a JSON object with the fields of this call.",
      error_code: "invalid_json",
    });
    const wrong = await send(api.signIn.path, JSON.stringify({ email: 1, password: [] }));
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error_code).toBe("invalid_request");
    const xml = await send(api.signIn.path, "<a/>", { "content-type": "application/xml" });
    expect(xml.status).toBe(415);
  });

  it("caps body size", async () => {
    const big = await send(api.trackJs.path, JSON.stringify({ message: "x".repeat(70 * 1024) }));
    expect(big.status).toBe(413);
    expect((await big.json()).error_code).toBe("body_too_large");
  });

  it("answers deeply nested JSON with 400 body_too_deep, never 500", async () => {
    const client = await server.signedIn("free@demo.test");
    // As deep as fits under the 64 KB body cap (the parser's own test goes to 100,000).
    const bodies = [
      `${"[".repeat(10_000)}${"]".repeat(10_000)}`,
      `${"[".repeat(32_000)}${"]".repeat(32_000)}`,
      `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`,
    ];
    // A payment call (idempotency fingerprint), error reports (stored as JSON) and a plain call.
    for (const path of [
      api.upgrade.path,
      api.trackJs.path,
      api.instrumentation.path,
      api.signUp.path,
    ]) {
      for (const body of bodies) {
        const response = await client.fetch(path, {
          method: "POST",
          headers: { "content-type": "application/json", "idempotency-key": newKey() },
          body,
        });
        expect({ path, status: response.status }).toEqual({ path, status: 400 });
        expect((await response.json()).error_code).toBe("body_too_deep");
      }
    }
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const response = await fetch(`${server.running.url}/api/9/nothing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "NOT FOUND", error_code: "not_found" });
  });

  it("never answers 5xx or a stack trace, whatever the body", async () => {
    const client = await server.signedIn("free@demo.test");
    const posts = Object.values(api).filter((e) => e.method !== "GET");
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...posts),
        fc.jsonValue({ maxDepth: 3 }),
        async (endpoint, value) => {
          const path = endpoint.path.replace(/:(\w+)/g, "1");
          const response = await client.fetch(path, {
            method: endpoint.method,
            headers: { "content-type": "application/json", "idempotency-key": newKey() },
            body: JSON.stringify(value),
          });
          const text = await response.text();
          expect(
            response.status,
            `${endpoint.method} ${path} ${JSON.stringify(value)}: ${text}`,
          ).toBeLessThan(500);
          expect(text).not.toMatch(/\bat .*\.ts:\d+/);
          if (response.status >= 400) ErrorBody.parse(JSON.parse(text));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("security headers", () => {
  it("sends a locked-down policy with API answers", async () => {
    const response = await fetch(`${server.running.url}${api.sessionStatus.path}`);
    expect(response.headers.get("content-security-policy")).toBe(
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("allows a static page's own inline scripts by hash, and frames only from the hub", async () => {
    const hash = createHash("sha256").update(INLINE).digest("base64");
    for (const encoding of ["gzip", "identity"]) {
      const home = await fetch(`${server.running.url}/`, {
        headers: { "accept-encoding": encoding },
      });
      const csp = home.headers.get("content-security-policy") ?? "";
      expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
      expect(csp).toContain("frame-ancestors 'self' https://hub.example.com");
      expect(csp).not.toContain("stripe");
      expect(home.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const cart = await fetch(`${server.running.url}/cart`);
    const csp = cart.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("https://js.stripe.com");
    expect(csp).not.toContain("paypal");
  });
});

describe("pages that do not exist", () => {
  it("get the site's 404 page with a 404 status", async () => {
    const response = await fetch(`${server.running.url}/no/such/page`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("<h1>Missing</h1>");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors");
  });
});

/** The local mailbox of the strict server: what was sent to `to`. */
async function strictMailbox(to: string): Promise<{ subject: string }[]> {
  const response = await fetch(
    `${strict.running.url}/dev/mailbox?format=json&to=${encodeURIComponent(to)}`,
  );
  return (await response.json()) as { subject: string }[];
}

describe("rate limits", () => {
  it("answers 429 with Retry-After on repeated sign-ins", async () => {
    const client = strict.client();
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) {
      last = await client.fetch(api.signIn.path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "free@demo.test", password: "wrong-password" }),
      });
    }
    if (!last) throw new Error("no answer");
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await last.json()).error_code).toBe("rate_limited");
    strict.clock.advance(60_000);
    const later = await strict
      .client()
      .call(api.signIn, { body: { email: "free@demo.test", password: "demo-password" } });
    expect(later.ok).toBe(true);
  });

  it("limits forgot-password, change-password and e-mail codes", async () => {
    const forgot: number[] = [];
    for (let i = 0; i < 6; i++) {
      forgot.push(
        (await strict.client().call(api.forgotPassword, { body: { email: `f${i}@demo.test` } }))
          .status,
      );
    }
    expect(forgot).toEqual([200, 200, 200, 200, 200, 429]);
    const change: number[] = [];
    for (let i = 0; i < 11; i++) {
      const body = {
        email: "x@demo.test",
        newPassword: "abcdefg",
        confirmNewPassword: "abcdefg",
        vc: "nope",
      };
      change.push((await strict.client().call(api.changePassword, { body })).status);
    }
    expect(change.at(-1)).toBe(429);
    const client = await strict.signedIn("trial@demo.test");
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await client.call(api.generateEmailCode)).status);
    expect(codes).toEqual([200, 200, 200, 429]);
    strict.clock.advance(15 * 60_000);
  });

  it("counts a reset request against the address only once its human check passed", async () => {
    // Requests without the human check's answer, from anyone: they spend their client's
    // allowance, not the owner's.
    strict.clock.advance(60_000);
    for (let i = 0; i < 3; i++) {
      const blocked = await strict
        .client()
        .call(api.forgotPassword, { body: { email: "monthly@demo.test" } });
      expect(blocked.body).toEqual({ success: false, failedValidations: ["humanCheckFailed"] });
    }
    strict.clock.advance(60_000);
    const owner = async () =>
      strict.client().call(api.forgotPassword, {
        body: {
          email: "monthly@demo.test",
          recaptchaResponse: await forgotAnswer("monthly@demo.test"),
        },
      });
    expect(await owner()).toMatchObject({ status: 200, body: { success: true } });
    await expect.poll(async () => (await strictMailbox("monthly@demo.test")).length).toBe(1);
    // Requests that passed the check still count: the address gets at most three links a
    // quarter of an hour.
    expect((await owner()).status).toBe(200);
    expect((await owner()).status).toBe(200);
    const fourth = await owner();
    expect(fourth).toMatchObject({ status: 429, body: { error_code: "rate_limited" } });
    strict.clock.advance(15 * 60_000);
  });

  it("limits quote PDFs from one client, for a minute", async () => {
    strict.clock.advance(60_000);
    const client = strict.client();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const answer = await client.fetch(`/orders/quote.pdf?seats=${2000 + (i % 2)}`);
      await answer.arrayBuffer();
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array.from({ length: 10 }, () => 200), 429]);
    strict.clock.advance(60_000);
    expect((await client.fetch("/orders/quote.pdf?seats=2000")).status).toBe(200);
  });

  it("limits coupon checks", async () => {
    const client = await strict.signedIn("free@demo.test");
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++)
      statuses.push(
        (await client.call(api.verifyCoupon, { params: { code: `guess${i}` } })).status,
      );
    expect(statuses.slice(0, 20).every((s) => s === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it("limits invitation lookups and uses from one client, for a minute", async () => {
    const guesser = strict.client();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await guesser.call(api.inviteInfo, { params: { code: `team-${i}` } })).status);
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // The real code gets no answer either, and using a code counts against the same budget.
    const real = await guesser.call(api.inviteInfo, { params: { code: "demo-invite" } });
    expect(real.status).toBe(429);
    expect(real.body).toMatchObject({ error_code: "rate_limited" });
    const signedIn = await strict.signedIn("free@demo.test");
    const use = await signedIn.call(api.acceptInvite, { params: { code: "demo-invite" } });
    expect(use.status).toBe(429);
    // A minute later the invitation reads again.
    strict.clock.advance(60_000);
    const info = await guesser.call(api.inviteInfo, { params: { code: "demo-invite" } });
    expect(info.status).toBe(200);
  });
});
