import { afterEach, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { startTestServer, type TestServer } from "../testing/harness.ts";
import { paymentProvidersOf } from "./payment-providers.ts";

const STRIPE_ENV = {
  PAYMENTS: "stripe",
  STRIPE_SECRET_KEY: "sk_test_secretvalue123",
  STRIPE_PUBLISHABLE_KEY: "pk_test_publicvalue123",
};

const PAYPAL_ENV = {
  PAYPAL_CLIENT_ID: "sb-client-id",
  PAYPAL_CLIENT_SECRET: "paypal-secret-value",
  PAYPAL_WEBHOOK_ID: "WH-TEST",
  // Nothing is called at start-up: the providers call only reads the settings.
  PAYPAL_API_URL: "http://127.0.0.1:9",
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
    // Without PayPal's settings a deployment has no PayPal (the stand-in is a local run's).
    expect(body.paypal).toEqual({ provider: "none" });
  });

  it("answers PayPal's client id, never its secret, beside Stripe when PayPal is configured", async () => {
    const { body, text } = await providersOf({ ...STRIPE_ENV, ...PAYPAL_ENV });
    expect(body).toEqual({
      card: { provider: "stripe", publishableKey: "pk_test_publicvalue123" },
      paypal: { provider: "paypal", clientId: "sb-client-id" },
    });
    expect(text).not.toContain("paypal-secret-value");
  });

  it("refuses to start with a PayPal client id alone (it could not verify a subscription)", async () => {
    await expect(startTestServer({ seed: false, env: { PAYPAL_CLIENT_ID: "x" } })).rejects.toThrow(
      /PAYPAL_CLIENT_SECRET is required/,
    );
  });
});

describe("paymentProvidersOf", () => {
  it("keeps the sandbox card form when only a publishable key is set (the token must be the sandbox's)", () => {
    expect(paymentProvidersOf({ payments: "sandbox", stripe: null, paypal: null }).card).toEqual({
      provider: "sandbox",
    });
  });
});
