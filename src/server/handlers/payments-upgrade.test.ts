// The payment handlers through the API: an upgrade.

import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { invoiceSummary } from "../../domain/account/invoice.ts";
import { CARD_ERROR_MESSAGES } from "../../domain/errors/card-errors.ts";
import { newKey } from "../testing/harness.ts";
import {
  cardToken,
  chargedAmounts,
  newAccount,
  server,
  startsPaymentsServer,
} from "../testing/payments-flow.ts";

startsPaymentsServer();

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
