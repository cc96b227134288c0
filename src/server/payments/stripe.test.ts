// The Stripe provider through the real `stripe` SDK, against a fake Stripe API on loopback.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../api/contract/index.ts";
import { CARD_ERROR_MESSAGES } from "../../domain/errors/card-errors.ts";
import { newKey, startTestServer, type TestServer } from "../testing/harness.ts";
import { createStripeProvider } from "./stripe.ts";

type Seen = {
  method: string;
  path: string;
  form: URLSearchParams;
  key: string | undefined;
  auth: string | undefined;
};

const seen: Seen[] = [];
const replies = new Map<string, string>();
let charges = 0;
let fake: Server;
let fakeUrl: string;

const card = { id: "card_fake", object: "card", brand: "Visa", last4: "4242" };
const declined = {
  error: {
    type: "card_error",
    code: "expired_card",
    message: "Your card has expired.",
    decline_code: "expired_card",
  },
};

beforeAll(async () => {
  fake = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      const form = new URLSearchParams(body);
      const key = req.headers["idempotency-key"] as string | undefined;
      seen.push({
        method: req.method ?? "",
        path: req.url ?? "",
        form,
        key,
        auth: req.headers.authorization,
      });
      const send = (status: number, payload: unknown) => {
        const text = JSON.stringify(payload);
        if (key) replies.set(key, `${status} ${text}`);
        res.writeHead(status, { "content-type": "application/json", "request-id": "req_fake" });
        res.end(text);
      };
      const earlier = key ? replies.get(key) : undefined;
      if (earlier) {
        const at = earlier.indexOf(" ");
        res.writeHead(Number(earlier.slice(0, at)), {
          "content-type": "application/json",
          "idempotent-replayed": "true",
        });
        res.end(earlier.slice(at + 1));
        return;
      }
      const path = req.url ?? "";
      if (path === "/v1/customers" && req.method === "POST") {
        if (form.get("source") === "tok_chargeDeclinedExpiredCard") return send(402, declined);
        return send(200, { id: "cus_fake", object: "customer", default_source: card });
      }
      if (/^\/v1\/customers\/cus_fake\/sources$/.test(path)) return send(200, card);
      if (/^\/v1\/customers\/cus_fake$/.test(path))
        return send(200, { id: "cus_fake", object: "customer" });
      if (path === "/v1/charges") {
        charges += 1;
        return send(200, {
          id: `ch_fake_${charges}`,
          object: "charge",
          amount: Number(form.get("amount")),
        });
      }
      send(404, { error: { type: "invalid_request_error", message: `No such route ${path}` } });
    });
  });
  await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => fake.close(r));
});

describe("Stripe provider", () => {
  it("saves the card on a new customer and charges it with the idempotency key", async () => {
    const stripe = createStripeProvider({ secretKey: "sk_test_fake", apiUrl: fakeUrl });
    const attached = await stripe.attachCard({
      customerId: null,
      userId: 7,
      email: "a@b.c",
      token: "tok_visa",
      idempotencyKey: "k1",
    });
    expect(attached).toEqual({ ok: true, customerId: "cus_fake", brand: "visa", last4: "4242" });
    const create = seen.find((s) => s.path === "/v1/customers");
    expect(create?.auth).toBe("Bearer sk_test_fake");
    expect(create?.form.get("source")).toBe("tok_visa");
    expect(create?.key).toBe("k1:customer");

    const before = charges;
    const charge = () =>
      stripe.charge({
        customerId: "cus_fake",
        amount: 9588,
        description: "x",
        idempotencyKey: "order:7:abc",
        metadata: { userId: "7" },
      });
    const first = await charge();
    const second = await charge();
    expect(first).toEqual({ ok: true, chargeId: `ch_fake_${before + 1}` });
    expect(second).toEqual(first);
    expect(charges).toBe(before + 1);
  });

  it("maps card errors to their codes", async () => {
    const stripe = createStripeProvider({ secretKey: "sk_test_fake", apiUrl: fakeUrl });
    const result = await stripe.attachCard({
      customerId: null,
      userId: 8,
      email: "a@b.c",
      token: "tok_chargeDeclinedExpiredCard",
      idempotencyKey: "k2",
    });
    expect(result).toEqual({ ok: false, kind: "card", code: "expired_card" });
  });

  it("reports an unreachable Stripe as unavailable", async () => {
    const stripe = createStripeProvider({
      secretKey: "sk_test_fake",
      apiUrl: "http://127.0.0.1:9",
    });
    const result = await stripe.charge({
      customerId: "cus",
      amount: 1,
      description: "x",
      idempotencyKey: "z",
      metadata: {},
    });
    expect(result).toMatchObject({ ok: false, kind: "unavailable" });
  }, 20_000);
});

describe("the server with PAYMENTS=stripe", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: {
        PAYMENTS: "stripe",
        STRIPE_SECRET_KEY: "sk_test_fake",
        STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
        STRIPE_API_URL: fakeUrl,
        SEED: "false",
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("saves a card, charges the summary total and shows Stripe's card errors with the spec's messages", async () => {
    const client = server.client();
    await client.call(api.signUp, {
      body: { email: "stripe@example.com", password: "secret-1", firstName: "S", lastName: "T" },
    });
    expect(
      (
        await client.call(api.sandboxToken, {
          body: {
            number: "4242424242424242",
            expMonth: 1,
            expYear: 2030,
            cvc: "123",
            postalCode: "1",
          },
        })
      ).status,
    ).toBe(404);
    const bad = await client.call(api.paymentToken, {
      body: { token: "tok_chargeDeclinedExpiredCard" },
      idempotencyKey: newKey(),
    });
    expect(bad).toMatchObject({
      status: 402,
      body: { error_code: "expired_card", message: CARD_ERROR_MESSAGES.expired_card },
    });
    const good = await client.call(api.paymentToken, {
      body: { token: "tok_visa" },
      idempotencyKey: newKey(),
    });
    expect(good.body).toEqual({
      success: true,
      paymentMethod: { processor: "cc", brand: "visa", last4: "4242" },
    });
    const order = await client.call(api.upgrade, {
      body: { product: { code: "wv_single_1m" } },
      idempotencyKey: newKey(),
    });
    expect(order.ok && order.body.total).toBe(999);
    const charge = seen.filter((s) => s.path === "/v1/charges").at(-1);
    expect(charge?.form.get("amount")).toBe("999");
    expect(charge?.form.get("customer")).toBe("cus_fake");
  });
});
