// The client's types come from the contract: a wrong payload, a missing path parameter or a
// missing Idempotency-Key does not compile. The `@ts-expect-error` lines are checked by
// `astro check` (an expected error that is not there fails it); the calls never run.
import { describe, expectTypeOf, it } from "vitest";
import { endpoints } from "../contract/endpoints.ts";
import { api, type ErrorCode, type ErrorsOf } from "../contract/index.ts";
import type { ApiFailure, CallResult } from "./call-types.ts";
import { type ApiClient, createApiClient } from "./client.ts";

function typeChecksOnly(client: ApiClient) {
  // Payloads must match the request schema.
  client.call(api.signIn, { body: { email: "a@b.test", password: "pw" } });
  // @ts-expect-error: password is missing
  client.call(api.signIn, { body: { email: "a@b.test" } });
  // @ts-expect-error: seats is a number
  client.call(api.orderSummary, { body: { targetProduct: "wv_single_12m", seats: "two" } });
  // @ts-expect-error: a body is required
  client.call(api.signUp);
  // @ts-expect-error: this call takes no body
  client.call(api.products, { body: {} });

  // Path parameters are required exactly where the path has them.
  client.call(api.inviteInfo, { params: { code: "abc" } });
  // @ts-expect-error: the invitation code is missing
  client.call(api.inviteInfo);
  // @ts-expect-error: the parameter is named code
  client.call(api.inviteInfo, { params: { id: "abc" } });

  // Payment calls need an Idempotency-Key; other calls cannot take one.
  client.call(api.upgrade, { body: { product: { code: "x" } }, idempotencyKey: "k" });
  // @ts-expect-error: the key is missing
  client.call(api.upgrade, { body: { product: { code: "x" } } });
  // @ts-expect-error: not an idempotent call
  client.call(api.location, { idempotencyKey: "k" });

  // Queries are typed too, and required when the schema needs fields.
  client.call(api.paymentOptions, { query: { tier: "business", new: "true" } });
  // @ts-expect-error: new is "true" or "false"
  client.call(api.paymentOptions, { query: { new: "yes" } });
  // @ts-expect-error: key and value are required
  client.call(api.setAttribute);

  // The form variant only for flat bodies.
  client.call(api.changePassword, {
    body: { email: "", newPassword: "", confirmNewPassword: "", vc: "" },
    form: true,
  });
  // @ts-expect-error: a nested body cannot go as a form
  client.call(api.orderSummary, { body: { targetProduct: "x", addOns: ["a"] }, form: true });
}

// The browser calls the bare route table (no schemas at run time) with the very same types.
function bareTableChecksOnly(client: ApiClient) {
  client.call(endpoints.signIn, { body: { email: "a@b.test", password: "pw" } });
  // @ts-expect-error: password is missing
  client.call(endpoints.signIn, { body: { email: "a@b.test" } });
  // @ts-expect-error: the invitation code is missing
  client.call(endpoints.inviteInfo);
  // @ts-expect-error: the key is missing
  client.call(endpoints.upgrade, { body: { product: { code: "x" } } });
  // @ts-expect-error: new is "true" or "false"
  client.call(endpoints.paymentOptions, { query: { new: "yes" } });
  return client.call(endpoints.upgrade, { body: {}, idempotencyKey: "k" });
}

describe("client types", () => {
  it("types answers from the response schema and failures from the endpoint's codes", () => {
    expectTypeOf(typeChecksOnly).toBeFunction();
    // A bare route's result is the full entry's.
    expectTypeOf<Awaited<ReturnType<typeof bareTableChecksOnly>>>().toEqualTypeOf<
      CallResult<typeof api.upgrade>
    >();
    type Upgrade = CallResult<typeof api.upgrade>;
    expectTypeOf<Extract<Upgrade, { ok: true }>["value"]["orderId"]>().toEqualTypeOf<string>();
    type UpgradeFailure = Extract<Upgrade, { ok: false }>["error"];
    expectTypeOf<UpgradeFailure>().toEqualTypeOf<ApiFailure<ErrorsOf<typeof api.upgrade>>>();
    expectTypeOf<"price_changed">().toExtend<ErrorsOf<typeof api.upgrade>>();
    expectTypeOf<"email_taken">().not.toExtend<ErrorsOf<typeof api.upgrade>>();
    expectTypeOf<ErrorsOf<typeof api.upgrade>>().toExtend<ErrorCode>();
    // The user info call reads its signed-out answer as a value.
    type Info = Extract<CallResult<typeof api.userInfo>, { ok: true }>["value"];
    expectTypeOf<Info["success"]>().toEqualTypeOf<boolean>();
    expectTypeOf(createApiClient).returns.toEqualTypeOf<ApiClient>();
  });
});
