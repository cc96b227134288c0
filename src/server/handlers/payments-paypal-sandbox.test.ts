// The payment handlers through the API: PayPal in the sandbox.

import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { invoiceSummary } from "../../domain/account/invoice.ts";
import { Orders } from "../db/orders.ts";
import { PaypalApprovals } from "../db/paypal-approvals.ts";
import { newKey } from "../testing/harness.ts";
import { newAccount, server, startsPaymentsServer } from "../testing/payments-flow.ts";
import { answerSandboxApproval } from "../testing/paypal-sandbox.ts";
import { countPaypalApprovalsOf } from "../testing/tables.ts";

startsPaymentsServer();

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
