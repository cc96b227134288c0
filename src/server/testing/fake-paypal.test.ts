// The PayPal fake speaks PayPal's documented shapes: every answer it gives the server's client
// (and every request the client sends it) is checked against PayPal's own OpenAPI documents in
// ../shared/reference (names, types, enums, patterns, lengths and required fields), so the fake
// cannot drift into a PayPal of its own.
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PaypalClient } from "../payments/paypal-client.ts";
import { FAKE_PAYPAL_CLIENT, FAKE_WEBHOOK_ID, FakePaypal } from "./fake-paypal.ts";

// ../shared/reference beside the checkout (a worktree sits one folder deeper).
const REFERENCE =
  ["../../../../shared/reference/", "../../../../../shared/reference/"]
    .map((path) => new URL(path, import.meta.url))
    .find((url) => existsSync(url)) ?? new URL("../../../../shared/reference/", import.meta.url);
const BILLING = new URL("paypal-billing-subscriptions-v1.openapi.json", REFERENCE);
const WEBHOOKS = new URL("paypal-notifications-webhooks-v1.openapi.json", REFERENCE);
const present = existsSync(BILLING) && existsSync(WEBHOOKS);
if (!present) console.warn("fake-paypal.test.ts skipped: PayPal's OpenAPI documents are absent");

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
};
type Doc = { components: { schemas: Record<string, Schema> } };

/** Problems of `value` against `schema` (empty when it conforms), with their paths. */
function check(doc: Doc, schema: Schema, value: unknown, path: string): string[] {
  if (schema.$ref) {
    const name = schema.$ref.replace("#/components/schemas/", "");
    const target = doc.components.schemas[name];
    return target ? check(doc, target, value, path) : [`${path}: unknown $ref ${name}`];
  }
  const problems: string[] = [];
  const properties: Record<string, Schema> = { ...schema.properties };
  const required = [...(schema.required ?? [])];
  for (const part of schema.allOf ?? []) {
    const resolved = part.$ref
      ? doc.components.schemas[part.$ref.replace("#/components/schemas/", "")]
      : part;
    Object.assign(properties, resolved?.properties);
    required.push(...(resolved?.required ?? []));
  }
  if (typeof value === "string") {
    if (schema.enum && !schema.enum.includes(value)) problems.push(`${path}: ${value} not in enum`);
    if (schema.pattern && !new RegExp(schema.pattern).test(value))
      problems.push(`${path}: ${value} does not match ${schema.pattern}`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      problems.push(`${path}: longer than ${schema.maxLength}`);
    if (schema.minLength !== undefined && value.length < schema.minLength)
      problems.push(`${path}: shorter than ${schema.minLength}`);
    return problems;
  }
  if (Array.isArray(value)) {
    return value.flatMap((item, i) =>
      schema.items ? check(doc, schema.items, item, `${path}[${i}]`) : [],
    );
  }
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const name of required)
      if (!(name in record)) problems.push(`${path}.${name}: required, missing`);
    // An object whose schema names no properties (an event's resource) may hold anything.
    const open = Object.keys(properties).length === 0;
    for (const [name, v] of Object.entries(record)) {
      const sub = properties[name];
      if (open) continue;
      if (!sub) problems.push(`${path}.${name}: not in PayPal's schema`);
      else problems.push(...check(doc, sub, v, `${path}.${name}`));
    }
  }
  return problems;
}

describe.skipIf(!present)("the PayPal fake against PayPal's OpenAPI documents", () => {
  const billing = present ? (JSON.parse(readFileSync(BILLING, "utf8")) as Doc) : null;
  const webhooks = present ? (JSON.parse(readFileSync(WEBHOOKS, "utf8")) as Doc) : null;
  const fake = new FakePaypal();
  let client: PaypalClient;
  beforeAll(async () => {
    await fake.start();
    client = new PaypalClient({
      clientId: FAKE_PAYPAL_CLIENT.id,
      clientSecret: FAKE_PAYPAL_CLIENT.secret,
      apiUrl: fake.url,
    });
  });
  afterAll(() => fake.stop());
  const schema = (doc: Doc | null, name: string): Schema => {
    const s = doc?.components.schemas[name];
    if (!s) throw new Error(`no schema ${name}`);
    return s;
  };

  it("answers plans and subscriptions, and takes plan requests, in PayPal's shapes", async () => {
    await client.createProduct({ id: "VE-wv_single_1m", name: "Single" });
    const request = {
      product_id: "VE-wv_single_1m",
      name: "Single (1 months at 9.99 USD)",
      description: "wv_single_1m:1m:999",
      status: "ACTIVE" as const,
      billing_cycles: [1, 2].map((sequence) => ({
        frequency: { interval_unit: "MONTH" as const, interval_count: 1 },
        tenure_type: sequence === 1 ? ("TRIAL" as const) : ("REGULAR" as const),
        sequence,
        total_cycles: sequence === 1 ? 1 : 0,
        pricing_scheme: { fixed_price: { currency_code: "USD", value: "9.99" } },
      })),
      payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 3 },
      quantity_supported: true,
    };
    expect(
      check(billing as Doc, schema(billing, "plan_request_POST"), request, "plan request"),
    ).toEqual([]);
    const plan = await client.createPlan(request, "plan-key");
    expect(check(billing as Doc, schema(billing, "plan"), plan, "plan")).toEqual([]);
    for (const status of ["ACTIVE", "APPROVAL_PENDING"] as const) {
      const made = fake.approve({
        planId: plan.id,
        customId: "PAYID-0001",
        quantity: 2,
        firstCycleUnitPrice: status === "ACTIVE" ? "4.50" : null,
        status,
      });
      const fetched = await client.getSubscription(made.id);
      expect(
        check(billing as Doc, schema(billing, "subscription"), fetched, "subscription"),
      ).toEqual([]);
    }
    const listed = await client.listPlans("VE-wv_single_1m", 1);
    expect(listed.plans?.map((p) => p.description)).toEqual(["wv_single_1m:1m:999"]);
    expect(
      check(billing as Doc, schema(billing, "plan_collection"), listed, "plan collection"),
    ).toEqual([]);
    const paid = [...fake.subscriptions.values()].find((s) => s.status === "ACTIVE");
    const payments = await client.listTransactions(
      paid?.id ?? "",
      new Date(Date.now() - 86_400_000),
      new Date(Date.now() + 86_400_000),
    );
    expect(payments.map((t) => t.amount_with_breakdown.gross_amount.value)).toEqual(["9.00"]);
    for (const payment of payments)
      expect(check(billing as Doc, schema(billing, "transaction"), payment, "payment")).toEqual([]);
    const revise = await client.reviseSubscription([...fake.subscriptions.keys()][0] ?? "", {
      plan_id: plan.id,
      quantity: "3",
    });
    expect(
      check(billing as Doc, schema(billing, "subscription_revise_response"), revise, "revise"),
    ).toEqual([]);
  });

  it("verifies a webhook only with its bytes unchanged, in PayPal's request shape", async () => {
    const event = fake.event("BILLING.SUBSCRIPTION.CANCELLED", { id: "I-1", status: "CANCELLED" });
    const t = {
      authAlgo: event.headers["paypal-auth-algo"] ?? "",
      certUrl: event.headers["paypal-cert-url"] ?? "",
      transmissionId: event.headers["paypal-transmission-id"] ?? "",
      transmissionSig: event.headers["paypal-transmission-sig"] ?? "",
      transmissionTime: event.headers["paypal-transmission-time"] ?? "",
    };
    expect(await client.verifyWebhookSignature(FAKE_WEBHOOK_ID, t, event.body)).toBe(true);
    const sent = fake.calls.at(-1)?.body ?? "";
    expect(
      check(
        webhooks as Doc,
        schema(webhooks, "verify_webhook_signature"),
        JSON.parse(sent),
        "verify",
      ),
    ).toEqual([]);
    const reserialised = JSON.stringify(JSON.parse(event.body));
    expect(await client.verifyWebhookSignature(FAKE_WEBHOOK_ID, t, reserialised)).toBe(false);
    expect(await client.verifyWebhookSignature("WH-OTHER", t, event.body)).toBe(false);
  });
});
