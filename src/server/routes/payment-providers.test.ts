import { afterEach, describe, expect, it } from "vitest";
import { api } from "../../api/contract/index.ts";
import { startTestServer, type TestServer } from "../testing/harness.ts";
import { paymentProvidersOf } from "./payment-providers.ts";

const STRIPE_ENV = {
  PAYMENTS: "stripe",
  STRIPE_SECRET_KEY: "sk_test_secretvalue123",
  STRIPE_PUBLISHABLE_KEY: "pk_test_publicvalue123",
};

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function providersOf(env: Record<string, string>) {
  server = await startTestServer({ seed: false, env });
  const answer = await server.client().call(api.paymentProviders, {});
  if (!answer.ok) throw new Error(answer.body.message);
  return { body: answer.body, text: JSON.stringify(answer.body) };
}

describe("GET /api/5/payment/providers", () => {
  it("answers the sandbox card form and the PayPal approval page by default", async () => {
    const { body } = await providersOf({});
    expect(body).toEqual({ card: { provider: "sandbox" }, paypal: { provider: "sandbox" } });
  });

  it("answers Stripe's publishable key, never the secret key, with PAYMENTS=stripe", async () => {
    const { body, text } = await providersOf(STRIPE_ENV);
    expect(body.card).toEqual({ provider: "stripe", publishableKey: "pk_test_publicvalue123" });
    expect(text).not.toContain("sk_test_secretvalue123");
    // The server settles PayPal only in sandbox mode: the browser is not offered it.
    expect(body.paypal).toEqual({ provider: "none" });
  });

  it("answers PayPal's client id for the SDK buttons when one is configured", async () => {
    const { body } = await providersOf({ PAYPAL_CLIENT_ID: "sb-client-id" });
    expect(body).toEqual({
      card: { provider: "sandbox" },
      paypal: { provider: "paypal", clientId: "sb-client-id" },
    });
  });
});

describe("paymentProvidersOf", () => {
  it("keeps the sandbox card form when only a publishable key is set (the token must be the sandbox's)", () => {
    expect(
      paymentProvidersOf({ payments: "sandbox", stripe: null, paypalClientId: null }).card,
    ).toEqual({ provider: "sandbox" });
  });
});
