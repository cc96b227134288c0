// The HTTP edge on Fastify (decision 0081), spoken to over HTTP: the route table's rules that
// http/router.ts's unit test used to prove (a trailing slash ignored, parameters decoded, a
// malformed escape matching nothing, 405 with Allow, OPTIONS), for routes added while the
// server runs, as the settable clock's are.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { startTestServer, type TestServer } from "../testing/harness.ts";
import { json } from "./reply.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: false });
  const { routes } = server.running.app;
  routes.raw({ method: "GET", path: "/api/test/edge/:code" }, async (_ctx, { params }) =>
    json({ read: params.code }),
  );
  routes.raw({ method: "POST", path: "/api/test/edge/:code" }, async () => json({ posted: true }));
});
afterAll(async () => {
  await server.close();
});

const at = (path: string, init?: RequestInit) => fetch(`${server.running.url}${path}`, init);

describe("the route table over HTTP", () => {
  it("matches with or without the trailing slash and decodes parameters", async () => {
    for (const path of ["/api/test/edge/a%20b", "/api/test/edge/a%20b/"]) {
      const answer = await at(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      expect(await answer.json()).toEqual({ read: "a b" });
    }
  });

  it("answers another method with 405 and the allowed ones, OPTIONS with 204", async () => {
    const refused = await at("/api/test/edge/x", { method: "PUT" });
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("GET, POST");
    expect(await refused.json()).toMatchObject({ error_code: "method_not_allowed" });
    const options = await at("/api/test/edge/x", { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, POST, OPTIONS");
  });

  it("answers a malformed escape as a path no route has: a JSON 404", async () => {
    const answer = await at("/api/test/edge/%E0%A4%A");
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ message: "NOT FOUND", error_code: "not_found" });
  });

  it("refuses a route defined twice", () => {
    const again = () =>
      server.running.app.routes.raw({ method: "GET", path: "/api/test/edge/:code/" }, async () =>
        json({}),
      );
    expect(again).toThrow(/defined twice/);
  });

  it("stands on Fastify, its cookies read by @fastify/cookie", () => {
    expect(server.running.app.fastify.hasPlugin("@fastify/cookie")).toBe(true);
  });
});

/** A POST sent with its path exactly as written (fetch would resolve "..", a hostile client not). */
function rawPost(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ eventName: "x" });
    const req = request(
      {
        host: "127.0.0.1",
        port: server.running.port,
        method: "POST",
        path,
        headers: { "content-type": "application/json", ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("the checks made before a body is read", () => {
  it("see the path the route table sees: a webhook's prefix with '..' is no way around the cross-site check", async () => {
    const path = api.instrumentation.path;
    const disguised = `/api/5/webhooks/../..${path.replace(/^\/api/, "")}`;
    expect(new URL(disguised, "http://x").pathname).toBe(path);
    expect(await rawPost(disguised, { origin: "https://evil.example" })).toBe(403);
    expect(await rawPost(path, { origin: "https://evil.example" })).toBe(403);
  });
});
