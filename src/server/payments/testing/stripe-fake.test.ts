// The Stripe fake's objects against Stripe's own published example objects (stripe/openapi's
// fixtures3.json, kept in /work/shared/reference when available): every field the fake sends is a
// field Stripe sends, with the same kind of JSON value, so the provider is not tested against
// shapes Stripe never produces. Skipped, saying so, where the reference file is absent.
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripeClient } from "../stripe.ts";
import { StripeFake } from "./stripe-fake.ts";

const FIXTURES = process.env.STRIPE_FIXTURES ?? "/work/shared/reference/stripe-fixtures3.json";
const present = existsSync(FIXTURES);

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Paths where `ours` has a field the fixture lacks, or a value of another kind. */
function mismatches(ours: unknown, theirs: unknown, path = ""): string[] {
  if (ours === null || theirs === null || theirs === undefined) return [];
  // Expandable fields: an id (string) where the fixture shows the object, or the other way.
  if (kind(ours) !== kind(theirs)) {
    const expandable =
      (kind(ours) === "string" && kind(theirs) === "object") ||
      (kind(ours) === "object" && kind(theirs) === "string");
    return expandable ? [] : [`${path}: ${kind(ours)} where Stripe has ${kind(theirs)}`];
  }
  if (kind(ours) !== "object") return [];
  const found: string[] = [];
  const mine = ours as Record<string, unknown>;
  const stripe = theirs as Record<string, unknown>;
  for (const key of Object.keys(mine)) {
    // Free-form maps: any key.
    if (key === "metadata") continue;
    if (!(key in stripe)) {
      // A field the SDK's types (the pinned API version) require that the fixtures' release
      // predates or dropped: allowed empty, never with a value Stripe's example cannot show.
      if (mine[key] !== null) found.push(`${path}${key}: not a field of Stripe's object`);
      continue;
    }
    found.push(...mismatches(mine[key], stripe[key], `${path}${key}.`));
  }
  return found;
}

describe.skipIf(!present)("the Stripe fake's objects are Stripe's shapes", () => {
  const fake = new StripeFake();
  let fixtures: Record<string, unknown>;
  beforeAll(async () => {
    fixtures = (
      JSON.parse(readFileSync(FIXTURES, "utf8")) as { resources: Record<string, unknown> }
    ).resources;
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });

  it("customer, setup intent, payment method, payment intent, charge, refund and dispute", async () => {
    const stripe = stripeClient("sk_test_fake", fake.url);
    const customer = await stripe.customers.create({ email: "f@example.com" });
    const setup = await stripe.setupIntents.create({
      customer: customer.id,
      payment_method: "pm_card_visa",
      confirm: true,
      usage: "off_session",
      expand: ["payment_method"],
    });
    const intent = await stripe.paymentIntents.create({
      amount: 999,
      currency: "usd",
      customer: customer.id,
      payment_method: "pm_card_visa",
      confirm: true,
      metadata: { order_key: "k" },
    });
    const charge = await stripe.charges.retrieve(intent.latest_charge as string);
    const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 100 });
    const dispute = fake.openDispute(intent.id);
    const objects: [string, unknown][] = [
      ["customer", customer],
      ["setup_intent", { ...setup, payment_method: "pm_card_visa" }],
      ["payment_method", setup.payment_method],
      ["payment_intent", intent],
      ["charge", charge],
      ["refund", refund],
      ["dispute", dispute],
    ];
    for (const [resource, object] of objects) {
      const { lastResponse: _, ...plain } = object as Record<string, unknown>;
      expect(fixtures[resource], resource).toBeDefined();
      expect(mismatches(plain, fixtures[resource]), resource).toEqual([]);
    }
  });
});

describe("the Stripe fake cancels a PaymentIntent as Stripe does", () => {
  const fake = new StripeFake();
  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });

  async function intentOf(pm: string, confirm = true) {
    const stripe = stripeClient("sk_test_fake", fake.url);
    const customer = await stripe.customers.create({ email: "c@example.com" });
    const create = {
      amount: 999,
      currency: "usd",
      customer: customer.id,
      payment_method: pm,
      confirm,
      off_session: true,
      metadata: { order_key: "k" },
    };
    const intent = await stripe.paymentIntents
      .create(create)
      .catch((error: { payment_intent?: { id: string } }) => error.payment_intent);
    return { stripe, id: intent?.id ?? "" };
  }

  it("a waiting intent is canceled with its reason; confirming it afterwards fails", async () => {
    const { stripe, id } = await intentOf("pm_card_authenticationRequired");
    const canceled = await stripe.paymentIntents.cancel(id, { cancellation_reason: "abandoned" });
    expect(canceled).toMatchObject({ id, status: "canceled", cancellation_reason: "abandoned" });
    expect(canceled.canceled_at).toEqual(expect.any(Number));
    await expect(
      stripe.paymentIntents.confirm(id, { payment_method: "pm_card_authenticationRequired" }),
    ).rejects.toMatchObject({ statusCode: 400, code: "payment_intent_unexpected_state" });
    await expect(stripe.paymentIntents.cancel(id)).rejects.toMatchObject({
      statusCode: 400,
      code: "payment_intent_unexpected_state",
    });
  });

  it("a succeeded intent cannot be canceled; an unknown reason is refused", async () => {
    const { stripe, id } = await intentOf("pm_card_visa");
    await expect(stripe.paymentIntents.cancel(id)).rejects.toMatchObject({
      statusCode: 400,
      code: "payment_intent_unexpected_state",
      payment_intent: expect.objectContaining({ id, status: "succeeded" }),
    });
    const waiting = await intentOf("pm_card_authenticationRequired");
    await expect(
      waiting.stripe.paymentIntents.cancel(waiting.id, {
        cancellation_reason: "bored" as "abandoned",
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: "cancellation_reason" });
    expect(fake.paymentIntents.get(waiting.id)?.status).toBe("requires_payment_method");
  });
});
