// The contract is the router (routing.ts, decision 0032): a handler is registered with its entry's
// schemas or not at all, gets its input only from the router, and never runs on input its
// schemas refuse; an answer outside its schema fails when responses are validated.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { endpointOf, endpoints, Success } from "../contract/index.ts";
import { json } from "./http/reply.ts";
import { startTestServer, type TestServer } from "./testing/harness.ts";

const Probe = endpointOf(
  { method: "POST", path: "/api/test/router/:id", auth: true },
  {
    params: z.object({ id: z.coerce.number().int().min(1) }),
    query: z.object({ mode: z.enum(["good", "bad"]) }),
    body: z.object({ name: z.string().min(1) }),
    response: z.object({ success: z.literal(true), id: z.number(), name: z.string() }),
    errors: [],
  },
);

let server: TestServer;
/** What the probe's handler was given, each time it ran. */
const ran: unknown[] = [];

beforeAll(async () => {
  server = await startTestServer({ allowServerErrors: true });
  server.running.app.routes.api(Probe, async (_ctx, { params, query, body, user }) => {
    ran.push({ id: params.id, mode: query.mode, name: body.name, user: user.email });
    // "bad" answers outside the response schema: a number where a string belongs.
    const name: string = query.mode === "bad" ? (42 as unknown as string) : body.name;
    return json({ success: true as const, id: params.id, name });
  });
});
afterAll(async () => {
  await server.close();
});

describe("registering a handler", () => {
  it("takes the contract's entry with its schemas, never the bare route of the table", () => {
    const { routes } = server.running.app;
    const register = () =>
      // @ts-expect-error: the browser's bare route has no schemas, so it cannot be registered
      routes.api(endpoints.location, async () => json({ success: true }));
    expect(register).toThrow(/register the contract's entry \(with its schemas\)/);
  });

  it("refuses flags that need a signed-in user on a route without auth", () => {
    const { routes } = server.running.app;
    const locked = endpointOf(
      { method: "POST", path: "/api/test/router-lock", accountLock: "always" },
      { response: Success, errors: [] },
    );
    // @ts-expect-error: without `auth` the handler is given no account
    expect(() => routes.api(locked, async (_ctx, { account }) => json(account))).toThrow(
      /its flags need `auth`/,
    );
  });
});

describe("the router, before the handler runs", () => {
  it("hands the handler the parsed params, query, body and user", async () => {
    ran.length = 0;
    const client = await server.signedIn("free@demo.test");
    const answer = await client.call(Probe, {
      params: { id: "7" },
      query: { mode: "good" },
      body: { name: "Ada" },
    });
    expect(answer).toMatchObject({ ok: true, status: 200, body: { id: 7, name: "Ada" } });
    expect(ran).toEqual([{ id: 7, mode: "good", name: "Ada", user: "free@demo.test" }]);
  });

  it("answers 401 to a signed-out request of an auth route", async () => {
    ran.length = 0;
    const answer = await server.client().call(Probe, {
      params: { id: 1 },
      query: { mode: "good" },
      body: { name: "Ada" },
    });
    expect(answer).toMatchObject({ status: 401, body: { error_code: "not_authenticated" } });
    expect(ran).toEqual([]);
  });

  it("refuses a bad body, query or path parameter with 400 invalid_request", async () => {
    ran.length = 0;
    const client = await server.signedIn("free@demo.test");
    const send = (path: string, body: string) =>
      client.fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
    const answers = [
      await send("/api/test/router/1?mode=good", JSON.stringify({ name: "" })),
      await send("/api/test/router/1?mode=good", JSON.stringify({ other: "x" })),
      await send("/api/test/router/1?mode=good", ""),
      await send("/api/test/router/1?mode=other", JSON.stringify({ name: "Ada" })),
      await send("/api/test/router/1", JSON.stringify({ name: "Ada" })),
      await send("/api/test/router/zero?mode=good", JSON.stringify({ name: "Ada" })),
      await send("/api/test/router/0?mode=good", JSON.stringify({ name: "Ada" })),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      const body = (await answer.json()) as { error_code: string; message: string };
      expect(body.error_code).toBe("invalid_request");
      expect(body.message.length).toBeGreaterThan(0);
    }
    expect(ran).toEqual([]);
  });

  it("fails an answer outside its schema when responses are validated (tests, local runs)", async () => {
    const client = await server.signedIn("free@demo.test");
    const before = server.log.lines.length;
    const response = await client.fetch("/api/test/router/3?mode=bad", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Ada" }),
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error_code: "internal_error" });
    expect(server.log.lines.slice(before)).toEqual([
      expect.stringContaining("POST /api/test/router/3 answered outside its contract"),
    ]);
  });
});
