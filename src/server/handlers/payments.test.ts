import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { invoiceSummary } from "../../domain/account/invoice.ts";
import {
  CARD_ERROR_MESSAGES,
  GENERIC_CARD_ERROR_MESSAGE,
} from "../../domain/errors/card-errors.ts";
import { PaypalApprovals } from "../db/ledger.ts";
import { Orders } from "../db/orders.ts";
import { Users } from "../db/users.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";
import { answerSandboxApproval } from "../testing/paypal-sandbox.ts";
import { countPaypalApprovalsOf, successfulChargeAmounts } from "../testing/tables.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function cardToken(client: TestClient, number: string): Promise<string> {
  const answer = await client.call(api.sandboxToken, {
    body: { number, expMonth: 12, expYear: 2030, cvc: "123", postalCode: "94107" },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  return answer.body.id;
}

async function newAccount(email: string, verified = false): Promise<TestClient> {
  const client = server.client();
  const answer = await client.call(api.signUp, {
    body: { email, password: "secret-1", firstName: "Pat", lastName: "Buyer" },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  // A trial starts only for a verified address (issue 18 item 6).
  if (verified)
    await server.running.deps.db.transaction((tx) =>
      Users.update(tx, answer.body.userId, { emailVerified: true }),
    );
  return client;
}

async function chargedAmounts(): Promise<number[]> {
  return successfulChargeAmounts(server.running.deps.db);
}

describe("sandbox card form", () => {
  it("makes tokens for valid numbers and refuses invalid ones", async () => {
    const client = server.client();
    expect(await cardToken(client, "4242 4242 4242 4242")).toMatch(/^tok_sandbox_/);
    const bad = await client.call(api.sandboxToken, {
      body: {
        number: "4242424242424241",
        expMonth: 12,
        expYear: 2030,
        cvc: "123",
        postalCode: "1",
      },
    });
    expect(bad).toMatchObject({ status: 400, body: { error_code: "invalid_card" } });
    const past = await client.call(api.sandboxToken, {
      body: { number: "4242424242424242", expMonth: 1, expYear: 2025, cvc: "123", postalCode: "1" },
    });
    expect(past).toMatchObject({ status: 400, body: { error_code: "invalid_card" } });
  });
});

describe("saving a card", () => {
  it("needs an Idempotency-Key", async () => {
    const client = await newAccount("key@example.com");
    // @ts-expect-error: no Idempotency-Key, on purpose: the server must refuse the call
    const answer = await client.call(api.paymentToken, {
      body: { token: await cardToken(client, "4242424242424242") },
    });
    expect(answer).toMatchObject({ status: 400, body: { error_code: "idempotency_key_required" } });
  });

  it("answers each test card's error with the spec's message", async () => {
    const client = await newAccount("cards@example.com");
    const cases: [string, string, string][] = [
      ["4000000000000002", "card_declined", CARD_ERROR_MESSAGES.card_declined],
      ["4000000000000069", "expired_card", CARD_ERROR_MESSAGES.expired_card],
      ["4000000000000127", "incorrect_cvc", CARD_ERROR_MESSAGES.incorrect_cvc],
      ["4000000000000119", "processing_error", CARD_ERROR_MESSAGES.processing_error],
      ["4000000000000036", "incorrect_zip", CARD_ERROR_MESSAGES.incorrect_zip],
      ["4000000000009995", "insufficient_funds", GENERIC_CARD_ERROR_MESSAGE],
    ];
    for (const [number, code, message] of cases) {
      const answer = await client.call(api.paymentToken, {
        body: { token: await cardToken(client, number) },
        idempotencyKey: newKey(),
      });
      expect(answer).toEqual(
        expect.objectContaining({ status: 402, body: { message, error_code: code } }),
      );
    }
    const ok = await client.call(api.paymentToken, {
      body: { token: await cardToken(client, "4242424242424242") },
      idempotencyKey: newKey(),
    });
    expect(ok.body).toEqual({
      success: true,
      paymentMethod: { processor: "cc", brand: "visa", last4: "4242" },
    });
    const context = await client.call(api.userContext);
    expect(context.ok && context.body.userHasPaymentMethodSet).toBe(true);
  });

  it("refuses a token used twice", async () => {
    const client = await newAccount("twice@example.com");
    const token = await cardToken(client, "4242424242424242");
    expect(
      (await client.call(api.paymentToken, { body: { token }, idempotencyKey: newKey() })).ok,
    ).toBe(true);
    expect(
      await client.call(api.paymentToken, { body: { token }, idempotencyKey: newKey() }),
    ).toMatchObject({
      status: 400,
      body: { error_code: "invalid_card" },
    });
  });
});

describe("upgrade", () => {
  it("charges exactly the summary's total, once per key, and records the invoice", async () => {
    const client = await newAccount("buyer@example.com");
    await client.call(api.address, { body: { country: "US", state: "CA" } });
    const body = { product: { code: "wv_unloct17_12m", name: "Unlimited" }, newCart: true };
    expect(await client.call(api.upgrade, { body, idempotencyKey: newKey() })).toMatchObject({
      status: 409,
      body: { error_code: "no_payment_method" },
    });
    await client.call(api.paymentToken, {
      body: { token: await cardToken(client, "4242424242424242") },
      idempotencyKey: newKey(),
    });
    const summary = await client.call(api.orderSummary, {
      body: { targetProduct: "wv_unloct17_12m", seats: 1 },
    });
    if (!summary.ok) throw new Error(summary.body.message);
    const before = await chargedAmounts();
    const key = newKey();
    const first = await client.call(api.upgrade, {
      body: { ...body, expectedTotal: summary.body.total },
      idempotencyKey: key,
    });
    if (!first.ok) throw new Error(first.body.message);
    expect(first.body).toMatchObject({
      success: true,
      productCode: "wv_unloct17_12m",
      total: summary.body.total,
      paymentProcessor: "cc",
    });
    const again = await client.call(api.upgrade, {
      body: { ...body, expectedTotal: summary.body.total },
      idempotencyKey: key,
    });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(
      await client.call(api.upgrade, { body: { ...body, seats: 2 }, idempotencyKey: key }),
    ).toMatchObject({
      status: 422,
      body: { error_code: "idempotency_key_reused" },
    });
    expect((await chargedAmounts()).slice(before.length)).toEqual([summary.body.total]);

    const invoices = await client.call(api.invoices, { params: { page: 1 } });
    if (!invoices.ok) throw new Error(invoices.body.message);
    const result = invoiceSummary(invoices.body, "cc");
    expect(result).toMatchObject({
      ok: true,
      value: { orderId: first.body.orderId, paymentProcessor: "cc", orderDuration: 12 },
    });
    const paypal = await client.call(api.paypalInvoices, { params: { page: 1 } });
    expect(paypal.ok && invoiceSummary(paypal.body, "paypal")).toEqual({
      ok: false,
      message: "PAYPAL INVOICE WAS NOT GENERATED",
    });

    const context = await client.call(api.userContext);
    expect(context.ok && context.body).toMatchObject({
      productCode: "wv_unloct17_12m",
      orderState: "automatic",
    });
  });

  it("refuses calls without a product, with a changed price, and from managed or mobile accounts", async () => {
    const client = await server.signedIn("monthly@demo.test");
    expect(
      await client.call(api.upgrade, { body: { newCart: true }, idempotencyKey: newKey() }),
    ).toMatchObject({
      status: 400,
      body: { message: "Upgrade call without any product", error_code: "upgrade_without_product" },
    });
    expect(
      await client.call(api.upgrade, {
        body: { product: { code: "wv_single_12m" }, expectedTotal: 1 },
        idempotencyKey: newKey(),
      }),
    ).toMatchObject({ status: 409, body: { error_code: "price_changed" } });
    expect(
      await client.call(api.upgrade, {
        body: { product: { code: "wv_unlimited_trial" } },
        idempotencyKey: newKey(),
      }),
    ).toMatchObject({ status: 409, body: { error_code: "product_not_purchasable" } });
    const po = await server.signedIn("po@demo.test");
    expect(
      await po.call(api.upgrade, {
        body: { product: { code: "wv_single_12m" } },
        idempotencyKey: newKey(),
      }),
    ).toMatchObject({
      status: 403,
      body: { error_code: "managed_account" },
    });
    // The teacher plan needs a verified school address: nothing is charged for anyone else.
    const personal = await newAccount("not-a-teacher@example.com");
    await personal.call(api.paymentToken, {
      body: { token: await cardToken(personal, "4242424242424242") },
      idempotencyKey: newKey(),
    });
    const charged = (await chargedAmounts()).length;
    expect(
      await personal.call(api.upgrade, {
        body: { product: { code: "wv_teacher_12m" } },
        idempotencyKey: newKey(),
      }),
    ).toMatchObject({ status: 403, body: { error_code: "education_email_required" } });
    expect((await chargedAmounts()).length).toBe(charged);
    const mobile = await server.signedIn("mobile@demo.test");
    expect(
      await mobile.call(api.upgrade, {
        body: { product: { code: "wv_single_12m" } },
        idempotencyKey: newKey(),
      }),
    ).toMatchObject({
      status: 403,
      body: { error_code: "upgrades_disabled" },
    });
  });

  it("declines at charge time for the 0341 card and keeps that answer for the key", async () => {
    const client = await newAccount("declined@example.com");
    await client.call(api.paymentToken, {
      body: { token: await cardToken(client, "4000000000000341") },
      idempotencyKey: newKey(),
    });
    const key = newKey();
    const body = { product: { code: "wv_single_1m" } };
    const first = await client.call(api.upgrade, { body, idempotencyKey: key });
    expect(first).toMatchObject({
      status: 402,
      body: { error_code: "card_declined", message: CARD_ERROR_MESSAGES.card_declined },
    });
    expect((await client.call(api.upgrade, { body, idempotencyKey: key })).body).toEqual(
      first.body,
    );
  });

  it("sells single exports and team licences", async () => {
    const client = await newAccount("team@example.com");
    await client.call(api.paymentToken, {
      body: { token: await cardToken(client, "5555555555554444") },
      idempotencyKey: newKey(),
    });
    const exportOrder = await client.call(api.upgrade, {
      body: { product: { code: "single_export_4k" } },
      idempotencyKey: newKey(),
    });
    expect(exportOrder.ok && exportOrder.body).toMatchObject({
      total: 499,
      productCode: "single_export_4k",
      orderEndDate: null,
    });
    const products = await client.call(api.products);
    expect(products.ok && products.body).toMatchObject({
      productCode: "wv_free",
      exportCredits: 1,
    });
    await client.call(api.setAttribute, {
      query: { key: "desiredInstanceName", value: "Pat Studio" },
    });
    const team = await client.call(api.upgrade, {
      body: { product: { code: "wv_bizoct17_1m" }, seats: 4 },
      idempotencyKey: newKey(),
    });
    expect(team.ok && team.body).toMatchObject({ productCode: "wv_bizoct17_1m", seats: 4 });
    const licence = await client.call(api.enterpriseLicense);
    expect(licence.ok && licence.body).toMatchObject({
      instanceName: "Pat Studio",
      maxSeats: 4,
      isEnterpriseAdmin: true,
    });
  });
});

describe("free trial", () => {
  it("names a second team with the same name as its owner chose, numbered readably", async () => {
    const names: string[] = [];
    for (const email of ["same-name-1@example.com", "same-name-2@example.com"]) {
      const client = await newAccount(email, true);
      const answer = await client.call(api.activateFreeTrial, {
        body: { vertical: "business", instanceName: "Same Name Studio" },
        idempotencyKey: newKey(),
      });
      if (!answer.ok) throw new Error(answer.body.message);
      names.push(answer.body.instanceName ?? "");
    }
    expect(names).toEqual(["Same Name Studio", "Same Name Studio (2)"]);
  });

  it("starts once per account, with a workspace for business", async () => {
    const client = await newAccount("trialist@example.com", true);
    const answer = await client.call(api.activateFreeTrial, {
      body: { vertical: "business", instanceName: "Trial Team" },
      idempotencyKey: newKey(),
    });
    if (!answer.ok) throw new Error(answer.body.message);
    expect(answer.body).toMatchObject({
      productCode: "wv_bizoct17_trial",
      remainingTrialDays: 14,
      instanceName: "Trial Team",
    });
    expect(answer.body.orderId).toMatch(/^ord_/);
    const context = await client.call(api.userContext);
    expect(context.ok && context.body).toMatchObject({
      isTrial: true,
      remainingTrialDays: 14,
      previousTrialOwner: true,
    });
    expect(
      await client.call(api.activateFreeTrial, {
        body: { vertical: "unlimited" },
        idempotencyKey: newKey(),
      }),
    ).toMatchObject({ status: 409, body: { error_code: "trial_not_available" } });
  });

  it("gives the education trial 30 days, to a verified school address only", async () => {
    for (const email of ["teacher@example.com", "edu@school.edu"]) {
      // Refused before the address is verified, and for an address that is not a school's.
      const refused = await newAccount(email);
      expect(
        await refused.call(api.activateFreeTrial, {
          body: { vertical: "education" },
          idempotencyKey: newKey(),
        }),
      ).toMatchObject({ status: 403, body: { error_code: "education_email_required" } });
    }
    const client = server.client();
    await client.call(api.signIn, { body: { email: "edu@school.edu", password: "secret-1" } });
    await client.call(api.generateEmailCode);
    const mails = (await (
      await fetch(`${server.running.url}/dev/mailbox?format=json&to=edu@school.edu`)
    ).json()) as { subject: string }[];
    const code = /(\d{6})/.exec(mails[0]?.subject ?? "")?.[1] ?? ""; // newest first
    expect((await client.call(api.verifyEmailCode, { body: { code } })).body).toEqual({
      success: true,
    });
    const answer = await client.call(api.activateFreeTrial, {
      body: { vertical: "education" },
      idempotencyKey: newKey(),
    });
    expect(answer.ok && answer.body).toMatchObject({
      productCode: "wv_edu_trial",
      remainingTrialDays: 30,
    });
  });
});

describe("PayPal sandbox", () => {
  it("approves on the local page, writes the order once and returns to the app", async () => {
    const client = await newAccount("paypal@example.com");
    const start = await client.call(api.paypalSubscription, {
      body: { product: { code: "wv_single_12m" }, newCart: true, href: "/cart#paypalCompleted" },
      idempotencyKey: newKey(),
    });
    if (!start.ok) throw new Error(start.body.message);
    expect(start.body.paypal).toMatchObject({
      productCode: "wv_single_12m",
      totalAmount: 2994,
      hasPaypalPayment: true,
    });
    const page = await client.fetch(start.body.approvalUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("$29.94");
    const approve = () => answerSandboxApproval(client, start.body.approvalId);
    const first = await approve();
    expect(first.status).toBe(303);
    const location = first.headers.get("location") ?? "";
    expect(location).toMatch(/^\/cart\?paypal=approved&orderId=ord_[\w-]+#paypalCompleted$/);
    expect((await approve()).headers.get("location")).toBe(location);
    const invoices = await client.call(api.paypalInvoices, { params: { page: 1 } });
    expect(invoices.ok && invoices.body.length).toBe(1);
    expect(invoices.ok && invoiceSummary(invoices.body, "paypal")).toMatchObject({
      ok: true,
      value: { price: 2994, paymentProcessor: "paypal" },
    });
    const context = await client.call(api.userContext);
    expect(context.ok && context.body).toMatchObject({
      productCode: "wv_single_12m",
      paymentMethod: "paypal",
    });
  });

  it("refuses unsafe return addresses with 400 before writing an approval or an order", async () => {
    const site = server.running.deps.config.publicBaseUrl;
    const client = server.client();
    const signUp = await client.call(api.signUp, {
      body: { email: "paypal3@example.com", password: "secret-1", firstName: "Pat", lastName: "B" },
    });
    if (!signUp.ok) throw new Error(signUp.body.message);
    const bad = [
      "/\t/evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      `${site}//evil.example`,
      `${site}/\\evil.example`,
      "//evil.example",
      "https:evil.example",
      "/%2F%2Fevil.example",
      "/%5Cevil.example",
      "/cart\n",
      "/cart\r\nSet-Cookie: sid=x",
      "/cart\u0000",
      "/cart\u2028",
      "/cart\u00a0#x",
      "javascript:alert(1)",
      "/api/3/payment/upgrade",
    ];
    for (const href of bad) {
      const answer = await client.call(api.paypalSubscription, {
        body: { product: { code: "wv_single_12m" }, href },
        idempotencyKey: newKey(),
      });
      expect({ href, answer }).toMatchObject({
        href,
        answer: {
          status: 400,
          body: { error_code: "invalid_return_url", message: expect.stringMatching(/href/) },
        },
      });
    }
    const db = server.running.deps.db;
    const written = {
      approvals: await countPaypalApprovalsOf(db, signUp.body.userId),
      orders: await Orders.countFor(db, signUp.body.userId),
    };
    expect(written).toEqual({ approvals: 0, orders: 0 });
  });

  it("returns on-site for an absolute address of this site", async () => {
    const site = server.running.deps.config.publicBaseUrl;
    const client = await newAccount("paypal4@example.com");
    const start = await client.call(api.paypalSubscription, {
      body: { product: { code: "wv_single_12m" }, href: `${site}/cart?from=hub#paypalCompleted` },
      idempotencyKey: newKey(),
    });
    if (!start.ok) throw new Error(start.body.message);
    const approved = await answerSandboxApproval(client, start.body.approvalId);
    expect(approved.status).toBe(303);
    expect(approved.headers.get("location")).toMatch(
      /^\/cart\?from=hub&paypal=approved&orderId=ord_[\w-]+#paypalCompleted$/,
    );
  });

  it("returns stored rows with an unsafe address to the checkout, never off-site or with a 500", async () => {
    const stored = [
      "/cart\r\nSet-Cookie: sid=stolen",
      "/cart\u0000",
      "//evil.example",
      "/\t/evil.example",
      "/\\evil.example",
    ];
    for (const [index, returnUrl] of stored.entries()) {
      // One buyer per row: an account cannot buy the plan it already has (issue 7, item 1).
      const client = server.client();
      const signUp = await client.call(api.signUp, {
        body: {
          email: `paypal5-${index}@example.com`,
          password: "secret-1",
          firstName: "Pat",
          lastName: "B",
        },
      });
      if (!signUp.ok) throw new Error(signUp.body.message);
      const summary = await client.call(api.orderSummary, {
        body: { targetProduct: "wv_single_12m" },
      });
      if (!summary.ok) throw new Error(summary.body.message);
      const id = `PAYID-OLDROW${index}`;
      await server.running.deps.db.transaction((tx) =>
        PaypalApprovals.insert(tx, {
          id,
          userId: signUp.body.userId,
          productCode: "wv_single_12m",
          seats: 1,
          addOns: [],
          coupon: null,
          total: summary.body.total,
          returnUrl,
          state: "created",
          orderId: null,
          createdAt: server.clock.now(),
          paypal: null,
          subscriptionId: null,
        }),
      );
      const approve = () => answerSandboxApproval(client, id);
      for (const answer of [await approve(), await approve()]) {
        expect({ returnUrl, status: answer.status }).toEqual({ returnUrl, status: 303 });
        expect(answer.headers.get("location")).toMatch(
          /^\/cart\?paypal=approved&orderId=ord_[\w-]+#paypalCompleted$/,
        );
      }
    }
  });

  it("refuses return addresses off the site", async () => {
    const client = await newAccount("paypal2@example.com");
    const answer = await client.call(api.paypalSubscription, {
      body: { product: { code: "wv_single_12m" }, href: "https://evil.example/steal" },
      idempotencyKey: newKey(),
    });
    expect(answer).toMatchObject({ status: 400, body: { error_code: "invalid_return_url" } });
  });
});
