// Every call of the contract (spec section 7) has a route on the server, and the demo accounts
// cover every role of spec section 6.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { Users } from "../db/users.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../seed.ts";
import { startTestServer, type TestServer } from "../testing/harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe("the contract", () => {
  it("routes every endpoint", async () => {
    const client = await server.signedIn("free@demo.test");
    for (const [name, endpoint] of Object.entries(api)) {
      const path = endpoint.path.replace(/:(\w+)/g, "1");
      const response = await client.fetch(path, {
        method: endpoint.method,
        headers: { "content-type": "application/json" },
        body: endpoint.method === "GET" ? undefined : "{}",
      });
      const body = (await response.json()) as { error_code?: string };
      expect(body.error_code, name).not.toBe("not_found");
      expect(response.status, name).not.toBe(405);
    }
  });
});

describe("demo accounts", () => {
  it("all sign in with the published password", async () => {
    for (const account of DEMO_ACCOUNTS) await server.signedIn(account.email, DEMO_PASSWORD);
    expect(await Users.count(server.running.deps.db)).toBe(DEMO_ACCOUNTS.length);
  });

  it("are created once only", async () => {
    const { seedDemoAccounts } = await import("../seed.ts");
    const again = await seedDemoAccounts(server.running.deps.db, {
      catalog: server.catalog,
      now: server.clock.now(),
      secret: Buffer.alloc(32),
      passwordCost: 10,
    });
    expect(again).toEqual([]);
  });
});

describe("sandbox mailbox", () => {
  it("escapes mail content and links only this site", async () => {
    const client = server.client();
    await client.call(api.signUp, {
      body: {
        email: "xss@example.com",
        password: "secret-1",
        firstName: "<script>alert(1)</script>",
        lastName: "X",
      },
    });
    const page = await fetch(`${server.running.url}/dev/mailbox`);
    const html = await page.text();
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(html).toContain("Hello &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)</script>");
  });
});
