// Each route answers only the error codes its contract entry lists (src/contract/index.ts), so
// the browser's exhaustive messages cover what it can receive. Two guards: the types refuse a
// returned code the entry does not list, and, with response validation on (every test server),
// the reply writer logs any unlisted code as an error, which fails the test that caused it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, endpointOf, Success } from "../contract/index.ts";
import { apiError } from "../domain/errors/api-errors.ts";
import { HttpError } from "./http/http-error.ts";
import { fail, json } from "./http/reply.ts";
import { startTestServer, type TestServer } from "./testing/harness.ts";

describe("the reply writer's check", () => {
  it("logs an error code that the endpoint does not list, and answers it unchanged", async () => {
    const server = await startTestServer({ seed: false, allowServerErrors: true });
    try {
      const probe = endpointOf(
        { method: "GET", path: "/api/test/probe/:mode" },
        { response: Success, errors: ["not_found"] },
      );
      const { routes } = server.running.app;
      routes.api(probe, async (_ctx, { params }) => {
        if (params.mode === "listed") return fail("not_found");
        // A thrown error escapes the types; the run-time check catches it.
        if (params.mode === "thrown") throw new HttpError(apiError("email_taken"));
        return json({ success: true as const });
      });
      const other = { ...probe, path: "/api/test/returned" };
      // @ts-expect-error: the types refuse a route that returns a code its entry does not list
      routes.api(other, async () => fail("username_taken"));
      const client = server.client();
      const listed = await client.call(probe, { params: { mode: "listed" } });
      const thrown = await client.call(probe, { params: { mode: "thrown" } });
      const returned = await client.call(other);
      expect([listed, thrown, returned].map((a) => [a.status, a.ok || a.body.error_code])).toEqual([
        [404, "not_found"],
        [409, "email_taken"],
        [409, "username_taken"],
      ]);
      expect(server.log.lines.filter((line) => line.startsWith("error"))).toEqual([
        expect.stringContaining(
          'GET /api/test/probe/thrown answered error_code "email_taken", which its contract entry does not list',
        ),
        expect.stringContaining('"username_taken", which its contract entry does not list'),
      ]);
    } finally {
      await server.close();
    }
  });
});

describe("every route, on bad and empty input", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  // close() throws if the server logged an error, an unlisted code among them.
  afterAll(async () => {
    await server.close();
  });

  const bodies: [string, Record<string, string>, string | undefined][] = [
    ["an empty object", { "content-type": "application/json" }, "{}"],
    ["no body", {}, undefined],
    ["broken JSON", { "content-type": "application/json" }, "{"],
    ["JSON nested too deep", { "content-type": "application/json" }, "[".repeat(40)],
    ["a body of another type", { "content-type": "text/csv" }, "a,b"],
    ["a form", { "content-type": "application/x-www-form-urlencoded" }, "a=1&b=true"],
  ];

  // Several hundred requests one after another: seconds on a shared, busy machine.
  it("answers listed codes only, signed out and signed in", { timeout: 30_000 }, async () => {
    const clients = [server.client(), await server.signedIn("free@demo.test")];
    const seen = new Set<string>();
    for (const client of clients) {
      for (const [name, entry] of Object.entries(api)) {
        const path = entry.path.replace(/:(\w+)/g, "nothing");
        for (const [, headers, body] of entry.method === "GET" ? [bodies[1]] : bodies) {
          const response = await client.fetch(`${path}?tier=${"x".repeat(40)}&method=other`, {
            method: entry.method,
            headers: headers ?? {},
            ...(body !== undefined && entry.method !== "GET" ? { body } : {}),
          });
          const answer = (await response.json()) as { error_code?: string };
          if (response.status >= 400) {
            expect(entry.errors, `${name}: ${answer.error_code}`).toContain(answer.error_code);
            seen.add(answer.error_code ?? "");
          }
        }
      }
    }
    // The sweep reaches the generic codes and many particular ones.
    expect([...seen]).toEqual(
      expect.arrayContaining([
        "invalid_json",
        "invalid_request",
        "body_too_deep",
        "unsupported_media_type",
        "not_authenticated",
        "idempotency_key_required",
        "unknown_method",
        "invite_not_found",
      ]),
    );
  });
});
