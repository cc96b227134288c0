import { describe, expect, it } from "vitest";
import { getConfig } from "./config.ts";

describe("getConfig", () => {
  it("has working defaults", () => {
    const result = getConfig({});
    expect(result).toEqual({
      ok: true,
      config: {
        port: 4321,
        host: "127.0.0.1",
        dataDir: ".data",
        payments: "sandbox",
        stripe: null,
        stripePublishableKey: null,
        paypalClientId: null,
        hubOrigins: [],
        publicBaseUrl: "http://localhost:4321",
        smtp: null,
        deploymentEnv: "local",
        seed: true,
      },
    });
  });

  it("names the variable in every error", () => {
    const result = getConfig({
      PORT: "80000",
      PAYMENTS: "bitcoin",
      HUB_ORIGINS: "https://hub.example.com, https://hub.example.com/path",
      PUBLIC_BASE_URL: "not a url",
      SMTP_URL: "http://mail",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toMatchInlineSnapshot(`
      [
        "PORT must be between 0 and 65535 (got "80000")",
        "PAYMENTS must be sandbox or stripe (got "bitcoin")",
        "HUB_ORIGINS must be an origin such as https://hub.example.com (no path, no trailing slash) (got "https://hub.example.com, https://hub.example.com/path")",
        "PUBLIC_BASE_URL must be an origin such as https://hub.example.com (no path, no trailing slash) (got "not a url")",
        "SMTP_URL must start with smtp:// or smtps://",
      ]
    `);
  });

  it("needs both Stripe keys for PAYMENTS=stripe and never echoes a key", () => {
    const result = getConfig({ PAYMENTS: "stripe", STRIPE_SECRET_KEY: "sk_test_secret123" });
    expect(result).toEqual({
      ok: false,
      errors: ["STRIPE_PUBLISHABLE_KEY is required when PAYMENTS=stripe"],
    });
    const bad = getConfig({ STRIPE_SECRET_KEY: "oops-secret" });
    expect(bad.ok === false && bad.errors.join()).not.toContain("oops-secret");
  });

  it("reads Stripe, PayPal, hub origins and SMTP", () => {
    const result = getConfig({
      PORT: "8080",
      PAYMENTS: "stripe",
      STRIPE_SECRET_KEY: "sk_live_abc",
      STRIPE_PUBLISHABLE_KEY: "pk_live_abc",
      PAYPAL_CLIENT_ID: "paypal-id",
      HUB_ORIGINS: "https://hub.example.com,https://app.example.com",
      PUBLIC_BASE_URL: "https://checkout.example.com",
      SMTP_URL: "smtps://user:pw@mail.example.com",
      SEED: "true",
    });
    expect(result.ok && result.config).toMatchObject({
      port: 8080,
      stripe: { secretKey: "sk_live_abc", publishableKey: "pk_live_abc", apiUrl: null },
      paypalClientId: "paypal-id",
      hubOrigins: ["https://hub.example.com", "https://app.example.com"],
      publicBaseUrl: "https://checkout.example.com",
      smtp: { url: "smtps://user:pw@mail.example.com", from: "Checkout <no-reply@localhost>" },
      seed: true,
    });
  });
});
