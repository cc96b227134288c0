import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "../contract/index.ts";
import { createApiClient } from "./client.ts";
import { type Step, scriptedFetch } from "./testing/scripted-fetch.ts";

const LOCATION = { countryCode: "US", stateCode: "CA", stateName: "California" };

function clientWith(...steps: Step[]) {
  const fetch = scriptedFetch(...steps);
  return { fetch, client: createApiClient({ fetch, version: "1.2.3" }) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("requests (spec 7)", () => {
  it("goes to the page's own origin with JSON accept, the version header and same-origin credentials", async () => {
    const { fetch, client } = clientWith({ status: 200, body: LOCATION });
    const result = await client.call(api.location);
    expect(result).toEqual({ ok: true, value: LOCATION, status: 200 });
    expect(fetch.sent).toEqual([
      {
        url: "/api/2/wevideouser/location",
        method: "GET",
        headers: { accept: "application/json", "x-client-version": "checkout/1.2.3" },
        body: undefined,
        credentials: "same-origin",
      },
    ]);
  });

  it("prefixes a base URL when given one (the server's tests)", async () => {
    const fetch = scriptedFetch({ status: 200, body: LOCATION });
    const client = createApiClient({ fetch, version: "1", baseUrl: "http://127.0.0.1:4321" });
    await client.call(api.location);
    expect(fetch.sent[0]?.url).toBe("http://127.0.0.1:4321/api/2/wevideouser/location");
  });

  it("sends a body as JSON with a JSON content type", async () => {
    const { fetch, client } = clientWith({ status: 200, body: { success: true, userId: 7 } });
    await client.call(api.signIn, { body: { email: "a@example.com", password: "pw" } });
    expect(fetch.sent[0]).toMatchObject({
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"email":"a@example.com","password":"pw"}',
    });
  });

  it("sends the change-password call as a form with no-cache headers (spec 7's variant)", async () => {
    const answer = { success: true, failedValidations: [] };
    const { fetch, client } = clientWith(
      { status: 200, body: answer },
      { status: 200, body: answer },
    );
    const body = {
      email: "a@b.test",
      newPassword: "p&ss=1 2",
      confirmNewPassword: "p&ss=1 2",
      vc: "v",
    };
    expect(await client.call(api.changePassword, { body })).toMatchObject({ ok: true });
    expect(fetch.sent[0]?.headers).toMatchObject({
      "content-type": "application/x-www-form-urlencoded;charset=UTF-8",
      "cache-control": "no-cache, no-store",
      pragma: "no-cache",
      expires: "0",
    });
    expect(fetch.sent[0]?.body).toBe(
      "email=a%40b.test&newPassword=p%26ss%3D1+2&confirmNewPassword=p%26ss%3D1+2&vc=v",
    );
    expect(new URLSearchParams(fetch.sent[0]?.body).get("newPassword")).toBe("p&ss=1 2");
    // The option overrides the endpoint's default either way.
    await client.call(api.changePassword, { body, form: false });
    expect(fetch.sent[1]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(fetch.sent[1]?.body ?? "")).toEqual(body);
  });

  it("carries the Idempotency-Key of a payment call", async () => {
    const { fetch, client } = clientWith({
      status: 200,
      body: { success: true, paymentMethod: { processor: "cc", brand: "visa", last4: "4242" } },
    });
    await client.call(api.paymentToken, { body: { token: "tok_1" }, idempotencyKey: "key-1" });
    expect(fetch.sent[0]?.headers["idempotency-key"]).toBe("key-1");
  });

  it("builds the query from the given fields, leaving out the undefined ones", async () => {
    const { fetch, client } = clientWith({ status: 200, body: { success: true } });
    await client.call(api.setAttribute, {
      query: { key: "desiredInstanceName", value: "A & B=c" },
    });
    expect(fetch.sent[0]?.url).toBe(
      "/api/2/wevideouser/attribute?key=desiredInstanceName&value=A+%26+B%3Dc",
    );
    const options = clientWith("network");
    await options.client.call(api.paymentOptions, {
      query: { tier: "business", new: "true", promoId: undefined, _: "1700000000000" },
    });
    expect(options.fetch.sent[0]?.url).toBe(
      "/api/3/payment/options?tier=business&new=true&_=1700000000000",
    );
  });

  it("percent-encodes path parameters as one segment each", async () => {
    const { fetch, client } = clientWith("network", "network");
    await client.call(api.verifyCoupon, { params: { code: "a b/c?d#e%" } });
    expect(fetch.sent[0]?.url).toBe("/api/3/instances/verifycoupon/a%20b%2Fc%3Fd%23e%25");
    await client.call(api.invoices, { params: { page: 1 } });
    expect(fetch.sent[1]?.url).toBe("/api/3/payment/invoices/1");
  });

  it("refuses a path parameter that would leave the endpoint's path, without sending anything", async () => {
    const { fetch, client } = clientWith();
    for (const code of ["..", ".", ""]) {
      expect(await client.call(api.inviteInfo, { params: { code } })).toEqual({
        ok: false,
        error: {
          kind: "invalid-request",
          message: "Api invalid request.",
          status: 400,
          detail: `path parameter code cannot be ${JSON.stringify(code)}`,
        },
      });
    }
    expect(fetch.sent).toEqual([]);
  });
});

describe("answers", () => {
  it("validates a successful answer with the contract and gives the parsed value", async () => {
    const { client } = clientWith({ status: 200, body: { ...LOCATION, extra: "dropped" } });
    expect(await client.call(api.location)).toEqual({ ok: true, value: LOCATION, status: 200 });
  });

  it("turns an answer outside the contract into a failure, never a throw", async () => {
    const { client } = clientWith(
      { status: 200, body: { countryCode: 1 } },
      { status: 200, body: "<html>not json</html>" },
    );
    expect(await client.call(api.location)).toEqual({
      ok: false,
      error: {
        kind: "invalid-response",
        message: "Api invalid response.",
        status: 200,
        detail: expect.stringContaining("countryCode"),
      },
    });
    expect(await client.call(api.location)).toMatchObject({
      ok: false,
      error: { kind: "invalid-response", status: 200 },
    });
  });

  it("reads the signed-out answer of the user info call as an answer (statuses below 500)", async () => {
    const signedOut = {
      success: false,
      message: "You are not signed in.",
      error_code: "not_authenticated",
    };
    const { client } = clientWith(
      { status: 401, statusText: "Unauthorized", body: signedOut },
      { status: 404, statusText: "Not Found", body: "<html></html>" },
      { status: 500, statusText: "Internal Server Error", body: signedOut },
    );
    expect(await client.call(api.userInfo)).toEqual({ ok: true, value: signedOut, status: 401 });
    // Below 500 but not the contract's signed-out answer: an error like any other.
    expect(await client.call(api.userInfo)).toEqual({
      ok: false,
      error: { kind: "http", message: "Not Found", status: 404 },
    });
    expect(await client.call(api.userInfo)).toMatchObject({
      ok: false,
      error: { kind: "http", status: 500, code: "not_authenticated" },
    });
  });
});

describe("failures, normalised as spec section 8 says", () => {
  it("gives a body's message and error_code with the HTTP status", async () => {
    const { client } = clientWith({
      status: 409,
      statusText: "Conflict",
      body: { message: "The price changed.", error_code: "price_changed" },
    });
    const result = await client.call(api.upgrade, {
      body: { product: { code: "wv_single_12m" } },
      idempotencyKey: "k",
    });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: "http",
        message: "The price changed.",
        status: 409,
        code: "price_changed",
        errorCode: "price_changed",
      },
    });
  });

  it("carries the fields an invalid_request names, for the form to show beside each", async () => {
    const fields = [
      { path: "email", message: "Enter an e-mail address such as name@example.com." },
    ];
    const { client } = clientWith({
      status: 400,
      statusText: "Bad Request",
      body: { message: "The request is not valid: email.", error_code: "invalid_request", fields },
    });
    const result = await client.call(api.signUp, {
      body: { email: "x", password: "secret-password", firstName: "A", lastName: "" },
    });
    expect(result.ok ? null : result.error.fields).toEqual(fields);
  });

  it("keeps a code the endpoint does not list apart from the ones the UI switches on", async () => {
    const { client } = clientWith({
      status: 409,
      statusText: "Conflict",
      body: { message: "Something new.", error_code: "brand_new_code" },
    });
    expect(await client.call(api.location)).toEqual({
      ok: false,
      error: { kind: "http", message: "Something new.", status: 409, errorCode: "brand_new_code" },
    });
  });

  it("gives the HTTP status text and status when the body has no content", async () => {
    const { client } = clientWith(
      { status: 502, statusText: "Bad Gateway", body: "<html>proxy</html>" },
      { status: 503, statusText: "Service Unavailable" },
      { status: 400, statusText: "Bad Request", body: { message: "", error_code: "x" } },
    );
    expect(await client.call(api.location)).toEqual({
      ok: false,
      error: { kind: "http", message: "Bad Gateway", status: 502 },
    });
    expect(await client.call(api.location)).toEqual({
      ok: false,
      error: { kind: "http", message: "Service Unavailable", status: 503 },
    });
    expect(await client.call(api.location)).toEqual({
      ok: false,
      error: { kind: "http", message: "Bad Request", status: 400 },
    });
  });

  it("gives 'NOT FOUND' with 404 when no answer comes (network failure)", async () => {
    const { client } = clientWith("network");
    expect(await client.call(api.location)).toEqual({
      ok: false,
      error: { kind: "network", message: "NOT FOUND", status: 404 },
    });
  });

  it("gives 'Api timeout response.' with ECONNABORTED after 30 seconds", async () => {
    vi.useFakeTimers();
    const { client } = clientWith("hang");
    let settled = false;
    const pending = client.call(api.location).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({
      ok: false,
      error: { kind: "timeout", message: "Api timeout response.", status: "ECONNABORTED" },
    });
  });

  it("times out on a body that never ends too, and honours a per-call timeout", async () => {
    vi.useFakeTimers();
    const stalled: typeof globalThis.fetch = async () =>
      new Response(new ReadableStream({ start() {} }), { status: 200 });
    const client = createApiClient({ fetch: stalled, version: "1", timeoutMs: 5_000 });
    const pending = client.call(api.location, { timeoutMs: 100 });
    await vi.advanceTimersByTimeAsync(100);
    expect(await pending).toMatchObject({ ok: false, error: { kind: "timeout" } });
  });

  it("settles an aborted call as aborted, before or during the request", async () => {
    const { fetch, client } = clientWith("hang");
    const controller = new AbortController();
    const pending = client.call(api.location, { signal: controller.signal });
    controller.abort();
    const aborted = {
      ok: false,
      error: { kind: "aborted", message: "Api request aborted.", status: "ERR_CANCELED" },
    };
    expect(await pending).toEqual(aborted);
    expect(await client.call(api.location, { signal: AbortSignal.abort() })).toEqual(aborted);
    expect(fetch.sent).toHaveLength(1);
  });

  it("warns 'Api no response !!!' for a method it does not know, and sends nothing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { fetch, client } = clientWith();
    const patch = { ...api.location, method: "PATCH" } as unknown as typeof api.location;
    expect(await client.call(patch)).toEqual({
      ok: false,
      error: { kind: "unknown-method", message: "NOT FOUND", status: 404 },
    });
    expect(warn).toHaveBeenCalledWith("Api no response !!!");
    expect(fetch.sent).toEqual([]);
  });

  it("tells onError of every failure and still returns it", async () => {
    const seen: unknown[] = [];
    const fetch = scriptedFetch("network", { status: 200, body: LOCATION });
    const client = createApiClient({
      fetch,
      version: "1",
      onError: (failure, endpoint) => seen.push([failure.kind, endpoint.path]),
    });
    expect((await client.call(api.location)).ok).toBe(false);
    expect((await client.call(api.location)).ok).toBe(true);
    expect(seen).toEqual([["network", "/api/2/wevideouser/location"]]);
  });
});
