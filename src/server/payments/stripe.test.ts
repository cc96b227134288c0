// The Stripe provider through the real `stripe` SDK against the local Stripe fake
// (testing/stripe-fake.ts): PaymentIntents and SetupIntents, a pinned API version, decline codes,
// and what it answers when the network or Stripe misbehaves: never "failed" for what may have
// charged, and never later than its deadline.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ChargeInput, PaymentProvider } from "./provider.ts";
import { createStripeProvider, STRIPE_API_VERSION } from "./stripe.ts";
import { StripeFake } from "./testing/stripe-fake.ts";

const fake = new StripeFake();
const lines: string[] = [];
let stripe: PaymentProvider;

beforeAll(async () => {
  await fake.start();
});
afterAll(async () => {
  await fake.stop();
});
beforeEach(() => {
  lines.length = 0;
  stripe = createStripeProvider({
    secretKey: "sk_test_fake",
    apiUrl: fake.url,
    log: (line) => lines.push(line),
    deadlineMs: 2_500,
    requestTimeoutMs: 700,
  });
});

let n = 0;
async function customerWith(pm = "pm_card_visa") {
  n += 1;
  const attached = await stripe.attachCard({
    customerId: null,
    userId: n,
    email: `p${n}@example.com`,
    token: pm,
    idempotencyKey: `card:${n}`,
  });
  if (!attached.ok) throw new Error(`not saved: ${JSON.stringify(attached)}`);
  return attached;
}

function purchase(
  customer: { customerId: string; paymentMethodId: string | null },
  key: string,
  amount = 9588,
): ChargeInput {
  return {
    customerId: customer.customerId,
    paymentMethodId: customer.paymentMethodId,
    amount,
    description: "wv_unlimited_12m × 1",
    idempotencyKey: key,
    orderKey: key,
    offSession: false,
    metadata: { userId: "1" },
  };
}

const paymentsFor = (key: string) =>
  [...fake.paymentIntents.values()].filter((p) => p.metadata.order_key === key);

describe("the Stripe provider", () => {
  it("saves a card with an off-session SetupIntent and pays with a PaymentIntent carrying the order key, at the pinned API version", async () => {
    const card = await customerWith();
    expect(card).toMatchObject({
      ok: true,
      brand: "visa",
      last4: "4242",
      paymentMethodId: "pm_card_visa",
    });
    const setup = fake.requests.find((r) => r.path === "/v1/setup_intents");
    expect(setup?.params).toMatchObject({
      usage: "off_session",
      confirm: "true",
      payment_method: "pm_card_visa",
    });
    expect(setup?.idempotencyKey).toBe(`card:${n}:setup`);
    expect(setup?.apiVersion).toBe(STRIPE_API_VERSION);
    expect(setup?.authorization).toBe("Bearer sk_test_fake");

    const paid = await stripe.charge(purchase(card, "order:1:a"));
    const again = await stripe.charge(purchase(card, "order:1:a"));
    // Only the request that made the payment says it is new (Stripe replays the key's answer).
    expect(paid).toMatchObject({ ok: true, new: true });
    expect(again).toEqual({ ...paid, new: undefined });
    expect(again).not.toHaveProperty("new");
    expect(paymentsFor("order:1:a")).toHaveLength(1);
    const create = fake.requests.filter((r) => r.path === "/v1/payment_intents").at(-1);
    expect(create?.idempotencyKey).toBe("order:1:a");
    expect(create?.params).toMatchObject({
      amount: "9588",
      currency: "usd",
      confirm: "true",
      customer: card.customerId,
      payment_method: "pm_card_visa",
      metadata: { order_key: "order:1:a", userId: "1" },
    });
  });

  it("renews off-session with the saved mandate", async () => {
    const card = await customerWith("pm_card_authenticationRequiredOnSetup").catch(() => null);
    // 3155 needs authentication when saved: the setup waits for the customer.
    expect(card).toBeNull();
    const visa = await customerWith();
    const renewal = await stripe.charge({ ...purchase(visa, "renewal:r1:1"), offSession: true });
    expect(renewal).toMatchObject({ ok: true });
    const create = fake.requests.filter((r) => r.path === "/v1/payment_intents").at(-1);
    expect(create?.params).toMatchObject({ off_session: "true", confirm: "true" });
  });

  it("gives the section-8 code from decline_code before code (insufficient_funds arrives as card_declined)", async () => {
    const saved = await stripe.attachCard({
      customerId: null,
      userId: 99,
      email: "d@example.com",
      token: "pm_card_visa_chargeDeclinedInsufficientFunds",
      idempotencyKey: "card:d1",
    });
    expect(saved).toEqual({ ok: false, kind: "card", code: "insufficient_funds" });
    const generic = await stripe.attachCard({
      customerId: null,
      userId: 98,
      email: "g@example.com",
      token: "pm_card_visa_chargeDeclined",
      idempotencyKey: "card:d2",
    });
    expect(generic).toEqual({ ok: false, kind: "card", code: "card_declined" });
    const expired = await stripe.attachCard({
      customerId: null,
      userId: 97,
      email: "e@example.com",
      token: "pm_card_visa_chargeDeclinedExpiredCard",
      idempotencyKey: "card:d3",
    });
    expect(expired).toEqual({ ok: false, kind: "card", code: "expired_card" });
    const failing = await customerWith("pm_card_chargeCustomerFail");
    const charged = await stripe.charge(purchase(failing, "order:1:declined"));
    expect(charged).toEqual({ ok: false, kind: "card", code: "card_declined" });
    expect(lines.some((l) => /declined \(request req_/.test(l))).toBe(true);
  });

  it("asks the customer to authenticate (3-D Secure), then finds the payment succeeded", async () => {
    const card = await customerWith();
    // A card that needs authentication on every payment, saved by another route.
    const every = { ...card, paymentMethodId: "pm_card_authenticationRequired" };
    const first = await stripe.charge(purchase(every, "order:1:3ds"));
    expect(first).toMatchObject({ ok: false, kind: "action" });
    if (first.ok || first.kind !== "action") return;
    expect(first.clientSecret).toMatch(/^pi_.*_secret_/);
    fake.authenticate(first.intentId, "complete");
    // The same key again: Stripe replays its first answer, the provider reads the payment now.
    expect(await stripe.charge(purchase(every, "order:1:3ds"))).toEqual({
      ok: true,
      chargeId: first.intentId,
    });
    expect(paymentsFor("order:1:3ds")).toHaveLength(1);
  });

  it("a renewal that needs the customer is a decline with the payment to authenticate", async () => {
    const card = await customerWith();
    const every = { ...card, paymentMethodId: "pm_card_authenticationRequired" };
    const renewal = await stripe.charge({ ...purchase(every, "renewal:r2:1"), offSession: true });
    expect(renewal).toMatchObject({ ok: false, kind: "action" });
  });
});

describe("faults: each ends with one charge or none, and the truth told", () => {
  it("an answer lost after the charge: the retry with the same key finds it (one charge)", async () => {
    const card = await customerWith();
    fake.fault("POST", "/v1/payment_intents", { kind: "lose-answer" });
    const paid = await stripe.charge(purchase(card, "order:1:lost"));
    expect(paid).toMatchObject({ ok: true });
    expect(paymentsFor("order:1:lost")).toHaveLength(1);
    expect(
      fake.succeededPayments().filter((p) => p.metadata.order_key === "order:1:lost"),
    ).toHaveLength(1);
  });

  it("answers lost until the deadline: unknown (never a failure), then found by the next call with the key", async () => {
    const card = await customerWith();
    for (let i = 0; i < 20; i++) fake.fault("POST", "/v1/payment_intents", { kind: "lose-answer" });
    for (let i = 0; i < 20; i++)
      fake.fault("GET", "/v1/payment_intents/search", { kind: "5xx-no-error", status: 502 });
    const started = Date.now();
    const paid = await stripe.charge(purchase(card, "order:1:unknown"));
    const took = Date.now() - started;
    expect(paid).toMatchObject({ ok: false, kind: "unknown" });
    expect(took).toBeLessThan(2_500 + 1_500);
    expect(paymentsFor("order:1:unknown")).toHaveLength(1);
    fake.clearFaults();
    const later = await stripe.charge(purchase(card, "order:1:unknown"));
    expect(later).toMatchObject({ ok: true });
    expect(paymentsFor("order:1:unknown")).toHaveLength(1);
  });

  it("a 5xx without an error object is never taken for a success (card saving and payment)", async () => {
    fake.fault("POST", "/v1/setup_intents", { kind: "5xx-no-error" });
    const card = await customerWith();
    expect(card).toMatchObject({ ok: true, last4: "4242", brand: "visa" });
    fake.fault("POST", "/v1/payment_intents", { kind: "5xx-no-error" });
    const paid = await stripe.charge(purchase(card, "order:1:5xx"));
    expect(paid).toMatchObject({ ok: true });
    expect(paymentsFor("order:1:5xx")).toHaveLength(1);
  });

  it("slow answers past the request timeout: answered before the deadline, one charge", async () => {
    const card = await customerWith();
    for (let i = 0; i < 20; i++)
      fake.fault("POST", "/v1/payment_intents", { kind: "slow", ms: 4_000 });
    for (let i = 0; i < 20; i++)
      fake.fault("GET", "/v1/payment_intents/search", { kind: "slow", ms: 4_000 });
    const started = Date.now();
    const paid = await stripe.charge(purchase(card, "order:1:slow"));
    expect(Date.now() - started).toBeLessThan(2_500 + 1_500);
    expect(paid).toMatchObject({ ok: false, kind: "unknown" });
    fake.clearFaults();
    expect(await stripe.charge(purchase(card, "order:1:slow"))).toMatchObject({ ok: true });
    expect(paymentsFor("order:1:slow")).toHaveLength(1);
  });

  it("429: tried again; when Stripe keeps refusing, nothing was charged and it says so", async () => {
    const card = await customerWith();
    fake.fault("POST", "/v1/payment_intents", { kind: "rate-limit" });
    expect(await stripe.charge(purchase(card, "order:1:429"))).toMatchObject({ ok: true });
    expect(paymentsFor("order:1:429")).toHaveLength(1);
    for (let i = 0; i < 20; i++) fake.fault("POST", "/v1/payment_intents", { kind: "rate-limit" });
    const refused = await stripe.charge(purchase(card, "order:1:429b"));
    expect(refused).toMatchObject({ ok: false, kind: "unavailable" });
    expect(paymentsFor("order:1:429b")).toHaveLength(0);
    fake.clearFaults();
  });

  it("a deleted customer: saving a card makes a new one; paying with the old one is refused, nothing charged", async () => {
    const card = await customerWith();
    fake.deleteCustomer(card.customerId);
    const paid = await stripe.charge(purchase(card, "order:1:gone"));
    expect(paid).toMatchObject({ ok: false, kind: "invalid" });
    expect(paymentsFor("order:1:gone")).toHaveLength(0);
    const saved = await stripe.attachCard({
      customerId: card.customerId,
      userId: 5,
      email: "gone@example.com",
      token: "pm_card_visa",
      idempotencyKey: "card:gone",
    });
    expect(saved).toMatchObject({ ok: true, last4: "4242" });
    if (!saved.ok) return;
    expect(saved.customerId).not.toBe(card.customerId);
    expect(lines.some((l) => l.includes(`customer ${card.customerId} is missing`))).toBe(true);
  });

  it("a reply that is not the payment asked for is not trusted", async () => {
    const card = await customerWith();
    // Another amount under the same key: Stripe's replay answers the first payment's.
    expect(await stripe.charge(purchase(card, "order:1:amount", 100))).toMatchObject({ ok: true });
    const other = await stripe.charge(purchase(card, "order:1:amount", 200));
    expect(other).toMatchObject({ ok: false, kind: "unknown" });
  });

  it("a payment looked up by its id is trusted only when the reply is that payment", async () => {
    const card = await customerWith();
    const first = await stripe.charge(purchase(card, "order:2:twice", 100));
    // A second attempt of the same order (another idempotency key): the same order key.
    const second = await stripe.charge({
      ...purchase(card, "order:2:twice", 100),
      idempotencyKey: "order:2:twice:again",
    });
    if (!first.ok || !second.ok) throw new Error("not charged");
    // The other payment of the same customer and amount, answered for the first's id.
    const asked = { customerId: card.customerId, orderKey: "order:2:twice", amount: 100 };
    const intentId = first.chargeId;
    fake.fault("GET", `/v1/payment_intents/${intentId}`, {
      kind: "other-intent",
      id: second.chargeId,
    });
    expect(await stripe.findPayment({ ...asked, paymentId: intentId })).toMatchObject({
      ok: false,
      kind: "unknown",
    });
    expect(await stripe.findPayment({ ...asked, paymentId: intentId })).toMatchObject({ ok: true });
  });
});

describe("cancelling a payment that waits for the customer", () => {
  /** A renewal refused with authentication_required: its intent waits for the customer. */
  async function waiting(key: string) {
    const card = await customerWith();
    const every = { ...card, paymentMethodId: "pm_card_authenticationRequired" };
    const input = { ...purchase(every, key), offSession: true };
    const refused = await stripe.charge(input);
    if (refused.ok || refused.kind !== "action") throw new Error("not waiting");
    const asked = {
      customerId: card.customerId,
      orderKey: key,
      amount: input.amount,
      paymentId: refused.intentId,
    };
    return { asked, intentId: refused.intentId };
  }

  it("cancelled: the intent can no longer be paid, and asking again says the same", async () => {
    const { asked, intentId } = await waiting("renewal:c1:1");
    expect(await stripe.cancelPayment(asked)).toEqual({ kind: "cancelled" });
    expect(fake.paymentIntents.get(intentId)).toMatchObject({
      status: "canceled",
      cancellation_reason: "abandoned",
    });
    const cancel = fake.requests.filter((r) => r.path === `/v1/payment_intents/${intentId}/cancel`);
    expect(cancel.map((r) => r.idempotencyKey)).toEqual(["renewal:c1:1:cancel"]);
    expect(await stripe.cancelPayment(asked)).toEqual({ kind: "cancelled" });
  });

  it("paid meanwhile: succeeded, with the payment to record", async () => {
    const { asked, intentId } = await waiting("renewal:c2:1");
    fake.authenticate(intentId, "complete");
    expect(await stripe.cancelPayment(asked)).toEqual({ kind: "succeeded", chargeId: intentId });
    expect(fake.paymentIntents.get(intentId)?.status).toBe("succeeded");
  });

  it("answers lost until the deadline: unknown, never cancelled; the next ask finds it cancelled", async () => {
    const { asked, intentId } = await waiting("renewal:c3:1");
    for (let i = 0; i < 20; i++) {
      fake.fault("POST", `/v1/payment_intents/${intentId}/cancel`, { kind: "lose-answer" });
    }
    const started = Date.now();
    expect(await stripe.cancelPayment(asked)).toMatchObject({ kind: "unknown" });
    expect(Date.now() - started).toBeLessThan(2_500 + 1_500);
    fake.clearFaults();
    expect(await stripe.cancelPayment(asked)).toEqual({ kind: "cancelled" });
  });

  it("a 5xx without an error object, or an intent that is not the one asked for: unknown", async () => {
    const { asked, intentId } = await waiting("renewal:c4:1");
    for (let i = 0; i < 20; i++) {
      fake.fault("POST", `/v1/payment_intents/${intentId}/cancel`, { kind: "5xx-no-error" });
    }
    expect(await stripe.cancelPayment(asked)).toMatchObject({ kind: "unknown" });
    fake.clearFaults();
    expect(await stripe.cancelPayment({ ...asked, amount: asked.amount + 1 })).toMatchObject({
      kind: "unknown",
    });
    expect(await stripe.cancelPayment({ ...asked, paymentId: "pi_missing" })).toMatchObject({
      kind: "unknown",
    });
  });
});
