import { describe, expect, it } from "vitest";
import { getConfig, LOCAL_SELLER } from "./config.ts";
import { DEPLOYED_SELLER } from "./testing/seller.ts";

describe("getConfig", () => {
  it("has working defaults", () => {
    const result = getConfig({});
    expect(result).toEqual({
      ok: true,
      config: {
        port: 4321,
        host: "127.0.0.1",
        dataDir: ".data",
        database: null,
        serverSecret: null,
        payments: "sandbox",
        stripe: null,
        stripePublishableKey: null,
        paypal: null,
        hubOrigins: [],
        publicBaseUrl: "http://localhost:4321",
        smtp: null,
        deploymentEnv: "local",
        trustedProxies: [],
        seed: true,
        local: true,
        clock: { settable: false, startMs: null },
        renewalIntervalMs: 60_000,
        reconcileIntervalMs: 900_000,
        seller: LOCAL_SELLER,
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

  it("runs on PostgreSQL with DATABASE_URL and a SERVER_SECRET shared by every server", () => {
    const secret = Buffer.alloc(32, 7).toString("base64url");
    const result = getConfig({
      DATABASE_URL: "postgres://app:hunter2@db.internal:5432/checkout",
      DATABASE_POOL_SIZE: "20",
      SERVER_SECRET: secret,
    });
    expect(result.ok && result.config).toMatchObject({
      database: { url: "postgres://app:hunter2@db.internal:5432/checkout", poolSize: 20 },
      serverSecret: Buffer.alloc(32, 7),
    });
    expect(getConfig({ DATABASE_URL: "postgresql://db/checkout" })).toEqual({
      ok: false,
      errors: [expect.stringMatching(/^SERVER_SECRET is required with DATABASE_URL/)],
    });
    const bad = getConfig({
      DATABASE_URL: "mysql://root:hunter2@db/checkout",
      SERVER_SECRET: Buffer.alloc(16).toString("base64url"),
    });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.errors).toEqual([
      "DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/database",
      expect.stringMatching(/^SERVER_SECRET must decode to at least 32 bytes/),
    ]);
    expect(bad.errors.join()).not.toContain("hunter2");
    expect(getConfig({ SERVER_SECRET: secret })).toEqual({
      ok: false,
      errors: [expect.stringMatching(/^SERVER_SECRET is only used with DATABASE_URL/)],
    });
  });

  it("reads Stripe, PayPal, hub origins and SMTP", () => {
    const result = getConfig({
      PORT: "8080",
      PAYMENTS: "stripe",
      STRIPE_SECRET_KEY: "sk_live_abc",
      STRIPE_PUBLISHABLE_KEY: "pk_live_abc",
      PAYPAL_CLIENT_ID: "paypal-id",
      PAYPAL_CLIENT_SECRET: "paypal-secret",
      PAYPAL_WEBHOOK_ID: "WH-1",
      PAYPAL_ENVIRONMENT: "live",
      HUB_ORIGINS: "https://hub.example.com,https://app.example.com",
      PUBLIC_BASE_URL: "https://checkout.example.com",
      SMTP_URL: "smtps://user:pw@mail.example.com",
      ...DEPLOYED_SELLER,
    });
    expect(result.ok && result.config).toMatchObject({
      port: 8080,
      stripe: { secretKey: "sk_live_abc", publishableKey: "pk_live_abc", apiUrl: null },
      paypal: {
        clientId: "paypal-id",
        clientSecret: "paypal-secret",
        webhookId: "WH-1",
        environment: "live",
        apiUrl: "https://api-m.paypal.com",
      },
      hubOrigins: ["https://hub.example.com", "https://app.example.com"],
      publicBaseUrl: "https://checkout.example.com",
      smtp: { url: "smtps://user:pw@mail.example.com", from: "Checkout <no-reply@localhost>" },
      seed: false,
      local: false,
    });
  });
});

describe("local run (issue 7, item 2)", () => {
  const stripe = {
    PAYMENTS: "stripe",
    STRIPE_SECRET_KEY: "sk_test_abc",
    STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
    ...DEPLOYED_SELLER,
  };

  it("is local on a fresh clone: loopback host and public URL, demo accounts and sandbox on", () => {
    for (const env of [
      {},
      { PUBLIC_BASE_URL: "http://127.0.0.1:4321" },
      { HOST: "::1", PUBLIC_BASE_URL: "http://[::1]:4321" },
      { HOST: "localhost" },
    ]) {
      const result = getConfig(env);
      expect(result.ok && result.config.local, JSON.stringify(env)).toBe(true);
      expect(result.ok && result.config.seed).toBe(true);
    }
  });

  it("refuses sandbox payments with a public base URL, even when PAYMENTS was forgotten", () => {
    const result = getConfig({
      PUBLIC_BASE_URL: "https://checkout.example.com",
      ...DEPLOYED_SELLER,
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toEqual([
      'PAYMENTS must be stripe outside a local run: sandbox payments, the sandbox mailbox and the PayPal stand-in exist only when HOST and PUBLIC_BASE_URL are loopback addresses (PUBLIC_BASE_URL is "https://checkout.example.com")',
    ]);
  });

  it("refuses demo accounts outside a local run", () => {
    const result = getConfig({
      ...stripe,
      PUBLIC_BASE_URL: "https://checkout.example.com",
      SEED: "true",
    });
    expect(!result.ok && result.errors).toEqual([
      'SEED cannot be true outside a local run: demo accounts with a published password exist only when HOST and PUBLIC_BASE_URL are loopback addresses (PUBLIC_BASE_URL is "https://checkout.example.com") (got "true")',
    ]);
  });

  it("needs a public base URL to listen on a public address, so the default cannot make it local", () => {
    const result = getConfig({ ...stripe, HOST: "0.0.0.0" });
    expect(!result.ok && result.errors[0]).toMatch(
      /^PUBLIC_BASE_URL is required when HOST is not a loopback address \(HOST is "0\.0\.0\.0"\)/,
    );
    const sandbox = getConfig({
      HOST: "0.0.0.0",
      PUBLIC_BASE_URL: "http://localhost:4321",
      ...DEPLOYED_SELLER,
    });
    expect(!sandbox.ok && sandbox.errors[0]).toMatch(
      /^PAYMENTS must be stripe outside a local run/,
    );
  });

  it("is not local with a public base URL and Stripe; no demo accounts by default", () => {
    const result = getConfig({ ...stripe, PUBLIC_BASE_URL: "https://checkout.example.com" });
    expect(result.ok && result.config).toMatchObject({ local: false, seed: false });
  });
});

describe("the seller on invoices (issue 23)", () => {
  const deployed = {
    PAYMENTS: "stripe",
    STRIPE_SECRET_KEY: "sk_test_abc",
    STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
    PUBLIC_BASE_URL: "https://checkout.example.com",
  };

  it("refuses to start a deployment that does not name the seller, naming each setting", () => {
    const result = getConfig({ ...deployed, SELLER_NAME: "Acme Video GmbH" });
    expect(!result.ok && result.errors).toEqual(
      ["SELLER_ADDRESS", "SELLER_COUNTRY", "SELLER_TAX_ID"].map(
        (key) =>
          `${key} is required outside a local run: every invoice names the seller (SELLER_NAME, SELLER_ADDRESS, SELLER_COUNTRY, SELLER_TAX_ID)`,
      ),
    );
  });

  it("reads the seller of a deployment: address lines split at semicolons", () => {
    const result = getConfig({ ...deployed, ...DEPLOYED_SELLER });
    expect(result.ok && result.config.seller).toEqual({
      name: "Acme Video Ltd",
      address: ["2 Harbour Road", "Dublin D04 Y123"],
      country: "IE",
      taxId: "IE3668997OH",
    });
  });

  it("refuses a country that is not a two-letter code", () => {
    const result = getConfig({ ...deployed, ...DEPLOYED_SELLER, SELLER_COUNTRY: "Ireland" });
    expect(!result.ok && result.errors).toEqual([
      'SELLER_COUNTRY must be a two-letter country code such as IE (got "Ireland")',
    ]);
  });
});

describe("TRUSTED_PROXIES (issue 7, item 9)", () => {
  it("reads a comma list of addresses, CIDR ranges and loopback", () => {
    const result = getConfig({ TRUSTED_PROXIES: "loopback, 10.0.0.0/8,fd00::/8 ,192.0.2.10" });
    expect(result.ok && result.config.trustedProxies).toEqual([
      "loopback",
      "10.0.0.0/8",
      "fd00::/8",
      "192.0.2.10",
    ]);
  });

  it("refuses a host name or a bad range, naming the variable", () => {
    const result = getConfig({ TRUSTED_PROXIES: "10.0.0.0/8, proxy.internal" });
    expect(!result.ok && result.errors).toEqual([
      'TRUSTED_PROXIES must list proxy addresses separated by commas: IP addresses, CIDR ranges such as 10.0.0.0/8 or fd00::/8, or loopback (got "10.0.0.0/8, proxy.internal")',
    ]);
  });
});
