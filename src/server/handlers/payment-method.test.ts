// GET /api/5/payment/method (issue 34): how the account pays, as the account page shows it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { newKey, startTestServer, type TestServer } from "../testing/harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe("the payment method", () => {
  it("is none before a card is saved, then the card by brand and last four digits", async () => {
    const client = server.client();
    const up = await client.call(api.signUp, {
      body: { email: "method@example.com", password: "secret-1", firstName: "Pat", lastName: "X" },
    });
    if (!up.ok) throw new Error(up.body.message);
    expect(await client.call(api.paymentMethod)).toMatchObject({
      status: 200,
      body: { kind: "none", label: null },
    });
    const token = await client.call(api.sandboxToken, {
      body: {
        number: "4242424242424242",
        expMonth: 12,
        expYear: 2030,
        cvc: "123",
        postalCode: "94107",
      },
    });
    if (!token.ok) throw new Error(token.body.message);
    await client.call(api.paymentToken, {
      body: { token: token.body.id },
      idempotencyKey: newKey(),
    });
    expect(await client.call(api.paymentMethod)).toMatchObject({
      status: 200,
      body: { kind: "card", label: "Visa ending 4242" },
    });
  });

  it("is PayPal for a subscription PayPal bills", async () => {
    const client = await server.signedIn("annual@demo.test");
    expect(await client.call(api.paymentMethod)).toMatchObject({
      status: 200,
      body: { kind: "paypal", label: "PayPal" },
    });
  });

  it("is refused without a session", async () => {
    expect(await server.client().call(api.paymentMethod)).toMatchObject({
      status: 401,
      body: { error_code: "not_authenticated" },
    });
  });
});
