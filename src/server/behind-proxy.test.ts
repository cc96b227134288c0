// Issue 7, item 9: rate limits key on the real client behind trusted proxies only, and an
// attacker's failed sign-ins cannot lock the owner out. In-process tests connect from 127.0.0.1;
// with TRUSTED_PROXIES=loopback that address is a proxy and X-Forwarded-For names the visitor.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../contract/index.ts";
import { startTestServer, type TestServer } from "./testing/harness.ts";

// Demo accounts never sign in through a proxy (local-run.ts): these tests use an account of their own.
const ACCOUNT = "proxied-user@example.com";
const PASSWORD = "proxied-secret-1";

let proxied: TestServer;
let direct: TestServer;
beforeAll(async () => {
  proxied = await startTestServer({ rateLimitScale: 1, env: { TRUSTED_PROXIES: "loopback" } });
  // Proxies are configured, but 127.0.0.1 (the tests) is not one of them.
  direct = await startTestServer({ rateLimitScale: 1, env: { TRUSTED_PROXIES: "10.0.0.0/8" } });
  for (const server of [proxied, direct]) {
    const up = await server.client().call(api.signUp, {
      body: { email: ACCOUNT, password: PASSWORD, firstName: "Pat", lastName: "Proxied" },
    });
    expect(up.ok).toBe(true);
  }
});
afterAll(async () => {
  await proxied.close();
  await direct.close();
});

let mailCounter = 0;
async function forgot(server: TestServer, forwardedFor: string): Promise<number> {
  mailCounter += 1;
  const answer = await server.client().call(api.forgotPassword, {
    body: { email: `nobody${mailCounter}@example.com` },
    headers: { "x-forwarded-for": forwardedFor },
  });
  return answer.status;
}

describe("client address", () => {
  it("gives visitors behind a trusted proxy buckets of their own", async () => {
    const a: number[] = [];
    for (let i = 0; i < 6; i++) a.push(await forgot(proxied, "203.0.113.7"));
    expect(a).toEqual([200, 200, 200, 200, 200, 429]);
    // Another visitor through the same proxy is not held back by the first one.
    expect(await forgot(proxied, "198.51.100.9")).toBe(200);
    // The proxy appends the address it saw; what the client wrote before it does not count.
    expect(await forgot(proxied, "1.2.3.4, 203.0.113.7")).toBe(429);
    proxied.clock.advance(60_000);
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await forgot(direct, `203.0.113.${i + 1}`));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    direct.clock.advance(60_000);
  });
});

describe("X-Forwarded-Proto", () => {
  const signIn = (server: TestServer) =>
    server.client().call(api.signIn, {
      body: { email: ACCOUNT, password: PASSWORD },
      headers: { "x-forwarded-proto": "https", "x-forwarded-for": "198.51.100.20" },
    });

  it("does not make a request secure when anyone may have sent it", async () => {
    const answer = await signIn(direct);
    expect(answer.ok).toBe(true);
    const cookie = answer.headers.getSetCookie()[0] ?? "";
    expect(cookie).toMatch(/^sid=/);
    expect(cookie).not.toMatch(/;\s*Secure/i);
  });

  it("marks the session cookie Secure when a trusted proxy says the client used https", async () => {
    const answer = await signIn(proxied);
    expect(answer.ok).toBe(true);
    expect(answer.headers.getSetCookie()[0]).toMatch(/; Secure$/);
  });
});

describe("sign-in limits", () => {
  const ATTACKER = "203.0.113.66";
  const OWNER = "198.51.100.77";
  const account = ACCOUNT;
  const signIn = (from: string, password: string) =>
    proxied.client().call(api.signIn, {
      body: { email: account, password },
      headers: { "x-forwarded-for": from },
    });

  it("lets the owner in while an attacker's failures hold back only the attacker", async () => {
    const attacker: number[] = [];
    for (let i = 0; i < 10; i++) attacker.push((await signIn(ATTACKER, `guess-${i}`)).status);
    expect(attacker).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);

    // The owner, from another address, is not locked out.
    const owner = await signIn(OWNER, PASSWORD);
    expect(owner).toMatchObject({ ok: true, status: 200 });

    // The attacker stays held back even with the right password: it must not learn it is right.
    const right = await signIn(ATTACKER, PASSWORD);
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({ error_code: "rate_limited" });
    const wait = Number(right.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    proxied.clock.advance(wait * 1000);
    expect((await signIn(ATTACKER, PASSWORD)).status).toBe(200);
    proxied.clock.advance(15 * 60_000);
  });

  it("still checks the owner's password when many addresses spent the account's failures", async () => {
    // A spread-out attack: more addresses than the failures the account allows. Each address
    // that has not been failing gets its password checked (so the owner can get in too).
    const addresses = Array.from({ length: 25 }, (_, i) => `192.0.2.${i + 1}`);
    for (const from of addresses) expect((await signIn(from, "wrong-password")).status).toBe(401);
    // Now every attacking address has been failing on an account under attack: it waits, right
    // password or not, though one failure alone would not hold it back.
    expect((await signIn("192.0.2.1", "another-guess")).status).toBe(429);
    expect((await signIn("192.0.2.2", PASSWORD)).status).toBe(429);
    // The owner has not: the password is checked, and the right one signs in.
    expect(await signIn(OWNER, PASSWORD)).toMatchObject({ ok: true, status: 200 });
    expect((await signIn(OWNER, "wrong-password")).status).toBe(401);
    proxied.clock.advance(15 * 60_000);
  });
});
