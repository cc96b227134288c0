// Issue 7, item 10: the same-origin check trusts the configured public origin, not the Host header
// (DNS rebinding forges it), and an https deployment sends HSTS with every answer.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../contract/index.ts";
import type { StaticHandler } from "./context.ts";
import { HSTS } from "./http/security.ts";
import { startTestServer, type TestServer } from "./testing/harness.ts";
import { DEPLOYED_SELLER } from "./testing/seller.ts";

const staticHandler: StaticHandler = (req, res, serve) => {
  const path = new URL(req.url ?? "/", "http://x").pathname;
  if (path !== "/" && path !== "/404.html") return false;
  res.statusCode = serve?.status ?? 200;
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.end("<!doctype html><h1>Page</h1>");
  return true;
};

let local: TestServer;
let deployed: TestServer;
beforeAll(async () => {
  local = await startTestServer({ staticHandler });
  deployed = await startTestServer({
    staticHandler,
    env: {
      PUBLIC_BASE_URL: "https://checkout.example.com",
      ...DEPLOYED_SELLER,
      PAYMENTS: "stripe",
      STRIPE_SECRET_KEY: "sk_test_fake",
      STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
      // Nothing here charges; should anything try, it stays on this machine.
      STRIPE_API_URL: "http://127.0.0.1:9",
      SEED: "false",
    },
  });
});
afterAll(async () => {
  await local.close();
  await deployed.close();
});

/** A POST with the Host and Origin a browser would send (fetch may not set Host). */
function post(server: TestServer, host: string, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ eventName: "x" });
    const req = request(
      `${server.running.url}${api.instrumentation.path}`,
      {
        method: "POST",
        headers: {
          host,
          origin,
          "sec-fetch-site": "same-origin",
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("same-origin check", () => {
  it("refuses a page whose name was rebound to this server, though its Origin matches Host", async () => {
    const port = local.running.port;
    expect(await post(local, "evil.example", "http://evil.example")).toBe(403);
    expect(await post(local, `evil.example:${port}`, `http://evil.example:${port}`)).toBe(403);
    expect(await post(deployed, "evil.example", "http://evil.example"), "a deployment too").toBe(
      403,
    );
  });

  it("accepts the public origin of a deployment, and only it", async () => {
    expect(await post(deployed, "checkout.example.com", "https://checkout.example.com")).toBe(200);
    const direct = `127.0.0.1:${deployed.running.port}`;
    expect(await post(deployed, direct, `http://${direct}`)).toBe(403);
    expect(await post(deployed, "checkout.example.com", "http://checkout.example.com")).toBe(403);
  });

  it("accepts the loopback names of its own port in a local run", async () => {
    const port = local.running.port;
    for (const name of ["127.0.0.1", "localhost", "[::1]"]) {
      expect(await post(local, `${name}:${port}`, `http://${name}:${port}`), name).toBe(200);
    }
    // Another local port is another site (another dev server), whatever the Host says.
    expect(await post(local, `localhost:${port + 1}`, `http://localhost:${port + 1}`)).toBe(403);
    expect(await post(local, `127.0.0.1:${port}`, `https://127.0.0.1:${port}`)).toBe(403);
  });
});

describe("HSTS", () => {
  it("comes with every kind of answer when the public base URL is https", async () => {
    const base = deployed.running.url;
    const answers = [
      await fetch(`${base}${api.sessionStatus.path}`),
      await fetch(`${base}/`),
      await fetch(`${base}/no/such/page`),
      await fetch(`${base}/login?action=logout`),
      await fetch(`${base}/api/9/nothing`),
      await fetch(`${base}${api.instrumentation.path}`, {
        method: "POST",
        headers: { origin: "https://evil.example", "content-type": "application/json" },
        body: "{}",
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 404, 200, 404, 403]);
    for (const response of answers) {
      expect(response.headers.get("strict-transport-security"), response.url).toBe(HSTS);
    }
    expect(HSTS).toBe("max-age=31536000; includeSubDomains");
  });

  it("is not sent by a plain-http local run", async () => {
    for (const path of [api.sessionStatus.path, "/"]) {
      const response = await fetch(`${local.running.url}${path}`);
      expect(response.headers.get("strict-transport-security")).toBeNull();
    }
  });
});
