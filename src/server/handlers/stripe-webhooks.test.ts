// Stripe's webhooks, refunds, disputes and the reconciliation, against the Stripe fake: events are
// signed with the SDK's own generateTestHeaderString, refused before anything changes when the
// signature or timestamp is wrong, applied once, and read from the object as Stripe has it now.
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { apiError } from "../../domain/errors/api-errors.ts";
import { Refunds } from "../db/refunds.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import { StripeFake } from "../payments/testing/stripe-fake.ts";
import { reconcileStripe, refundStripeOrder } from "../services/stripe-reconcile.ts";
import { newKey, type TestClient, type TestServer } from "../testing/harness.ts";
import {
  fakeStripeClient,
  lostPayment,
  startStripeServer,
  stopStripeServer,
} from "../testing/stripe-server.ts";
import { orderIdsOf } from "../testing/tables.ts";

const SECRET = "whsec_testsecret123";
const fake = new StripeFake();
let server: TestServer;
let stripe: Stripe;

beforeAll(async () => {
  server = await startStripeServer(fake, { env: { STRIPE_WEBHOOK_SECRET: SECRET } });
  stripe = fakeStripeClient(fake);
});
afterAll(() => stopStripeServer(server, fake));

const db = () => server.running.deps.db;
/** What a refund needs to issue its credit note and receipt: the server's own mailer and settings. */
const invoiceDeps = () => ({
  mailer: server.running.deps.mailer,
  config: server.running.deps.config,
});

/** Posts an event as Stripe does: the raw JSON body, signed (or not) at the server's time. */
async function deliver(
  event: Stripe.Event,
  options: { secret?: string; timestamp?: number; headers?: Record<string, string> } = {},
) {
  const payload = JSON.stringify(event);
  const signature = stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? SECRET,
    timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
  });
  const response = await fetch(`${server.running.url}/api/5/webhooks/stripe`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "stripe-signature": signature,
      ...options.headers,
    },
    body: payload,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

let n = 0;
async function paidAnnual(): Promise<{
  client: TestClient;
  userId: number;
  paymentId: string;
  orderId: string;
  total: number;
}> {
  n += 1;
  const { client, userId } = await server.verifiedAccount(`hook${n}@example.com`, "secret-1");
  const saved = await client.call(api.paymentToken, {
    body: { token: "pm_card_visa" },
    idempotencyKey: newKey(),
  });
  if (!saved.ok) throw new Error(saved.body.message);
  const order = await client.call(api.upgrade, {
    body: { product: { code: "wv_unloct17_12m" } },
    idempotencyKey: newKey(),
  });
  if (!order.ok) throw new Error(order.body.message);
  const payment = fake
    .succeededPayments()
    .find((p) => p.metadata.order_key?.startsWith(`order:${userId}:`));
  return {
    client,
    userId,
    paymentId: payment?.id as string,
    orderId: order.body.orderId,
    total: order.body.total,
  };
}

const chargeOf = (paymentId: string) =>
  fake.charges.get(fake.paymentIntents.get(paymentId)?.latest_charge as string) as Stripe.Charge;

describe("POST /api/5/webhooks/stripe", () => {
  it("refuses a wrong signature, an old timestamp or none with 400 {message, error_code}, changing nothing", async () => {
    const { userId, paymentId } = await paidAnnual();
    fake.dashboardRefund(paymentId);
    const event = fake.event("charge.refunded", chargeOf(paymentId));
    for (const bad of [
      await deliver(event, { secret: "whsec_wrongsecret" }),
      await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 3_600 }),
    ]) {
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error_code: "webhook_signature_invalid" });
      expect(typeof bad.body.message).toBe("string");
    }
    const unsigned = await fetch(`${server.running.url}/api/5/webhooks/stripe`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(400);
    for (const orderId of await orderIdsOf(db(), userId))
      expect(await Refunds.forOrder(db(), orderId)).toEqual([]);
    expect((await Subscriptions.get(db(), userId))?.expiredFlag).toBe(false);
  });

  it("refuses a signature timestamped an hour ahead, and a signed event without an object, with 400, changing nothing", async () => {
    const { paymentId, orderId } = await paidAnnual();
    fake.dashboardRefund(paymentId);
    const event = fake.event("charge.refunded", chargeOf(paymentId));
    const ahead = await deliver(event, { timestamp: Math.floor(Date.now() / 1000) + 3_600 });
    expect(ahead.status).toBe(400);
    expect(ahead.body).toMatchObject({ error_code: "webhook_signature_invalid" });
    for (const data of [null, {}, { object: null }, { object: {} }]) {
      const shapeless = { ...event, id: `${event.id}_${JSON.stringify(data)}`, data } as never;
      const answer = await deliver(shapeless);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error_code: "webhook_event_invalid" });
      expect(answer.body.message).toBe(apiError("webhook_event_invalid").body.message);
    }
    // A few seconds ahead (clocks differ a little) is still taken, and applied once.
    const skewed = await deliver(event, { timestamp: Math.floor(Date.now() / 1000) + 5 });
    expect(skewed).toEqual({ status: 200, body: { received: true, duplicate: false } });
    expect(await Refunds.forOrder(db(), orderId)).toHaveLength(1);
  });

  it("a full dashboard refund ends what it bought, once however often the event comes (and from another site's headers)", async () => {
    const { userId, paymentId, orderId, total } = await paidAnnual();
    fake.dashboardRefund(paymentId);
    const event = fake.event("charge.refunded", chargeOf(paymentId));
    const first = await deliver(event, {
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(first).toEqual({ status: 200, body: { received: true, duplicate: false } });
    const again = await Promise.all([deliver(event), deliver(event)]);
    expect(again.map((a) => a.body.duplicate)).toEqual([true, true]);
    const refunds = await Refunds.forOrder(db(), orderId);
    expect(refunds).toEqual([
      expect.objectContaining({ amount: total, kind: "refund", provider: "stripe" }),
    ]);
    const sub = await Subscriptions.get(db(), userId);
    expect(sub).toMatchObject({ expiredFlag: true, productCode: "wv_free" });
  });

  it("a partial refund is recorded and shown on the invoice; the plan stays", async () => {
    const { client, userId, paymentId, orderId } = await paidAnnual();
    fake.dashboardRefund(paymentId, 1_000);
    expect((await deliver(fake.event("charge.refunded", chargeOf(paymentId)))).status).toBe(200);
    expect(await Refunds.forOrder(db(), orderId)).toEqual([
      expect.objectContaining({ amount: 1_000 }),
    ]);
    expect((await Subscriptions.get(db(), userId))?.expiredFlag).toBe(false);
    const invoices = await client.call(api.invoices, { params: { page: 1 } });
    const invoice = invoices.ok ? invoices.body.find((i) => i.orderId === orderId) : undefined;
    expect(invoice?.amountRefunded).toBe(1_000);
  });

  it("a lost dispute ends what it bought; an open one changes nothing", async () => {
    const { userId, paymentId, orderId } = await paidAnnual();
    const dispute = fake.openDispute(paymentId);
    expect((await deliver(fake.event("charge.dispute.created", dispute))).status).toBe(200);
    expect((await Subscriptions.get(db(), userId))?.expiredFlag).toBe(false);
    // The event's copy says "needs_response"; Stripe's object says lost: the object counts.
    const stale = fake.event("charge.dispute.closed", { ...dispute });
    fake.closeDispute(dispute.id, "lost");
    expect((await deliver(stale)).status).toBe(200);
    expect(await Refunds.forOrder(db(), orderId)).toEqual([
      expect.objectContaining({ id: dispute.id, kind: "dispute_lost" }),
    ]);
    expect((await Subscriptions.get(db(), userId))?.expiredFlag).toBe(true);
  });

  it("a customer deleted in Stripe, or its card detached, leaves the account without a card on file", async () => {
    const a = await paidAnnual();
    const b = await paidAnnual();
    const userA = await Users.byId(db(), a.userId);
    const userB = await Users.byId(db(), b.userId);
    fake.deleteCustomer(userA?.paymentCustomer as string);
    expect(
      (
        await deliver(
          fake.event("customer.deleted", {
            id: userA?.paymentCustomer as string,
            object: "customer",
          }),
        )
      ).status,
    ).toBe(200);
    expect(await Users.byId(db(), a.userId)).toMatchObject({
      paymentCustomer: null,
      cardLast4: null,
    });
    // Not detached at Stripe (the fake's payment method still has no customer): applied as detached.
    expect(
      (
        await deliver(
          fake.event("payment_method.detached", {
            id: userB?.paymentMethod as string,
            object: "payment_method",
          }),
        )
      ).status,
    ).toBe(200);
    expect(await Users.byId(db(), b.userId)).toMatchObject({
      paymentMethod: null,
      cardLast4: null,
    });
  });

  it("bounds the body", async () => {
    const big = "x".repeat(300 * 1024);
    const response = await fetch(`${server.running.url}/api/5/webhooks/stripe`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=x" },
      body: big,
    });
    expect(response.status).toBe(413);
  });
});

describe("support refunds and the reconciliation", () => {
  it("the support command refunds an order through the same path; the webhook that follows finds it recorded", async () => {
    const { userId, paymentId, orderId, total } = await paidAnnual();
    const deps = { db: db(), stripe, log: server.log, clock: server.clock, ...invoiceDeps() };
    const done = await refundStripeOrder(deps, { orderId });
    expect(done).toMatchObject({ amount: total, ended: true });
    expect((await Subscriptions.get(db(), userId))?.expiredFlag).toBe(true);
    expect(await deliver(fake.event("charge.refunded", chargeOf(paymentId)))).toMatchObject({
      status: 200,
    });
    expect(await Refunds.forOrder(db(), orderId)).toHaveLength(1);
    await expect(refundStripeOrder(deps, { orderId })).rejects.toThrow(
      /0 of \d+ cents can be refunded/,
    );
  });

  it("refunds a payment left without an order after the grace time, and reports orders without a payment", async () => {
    const { userId } = await paidAnnual();
    // A payment whose answer was lost and never asked again: no order.
    const orphan = await lostPayment(stripe, db(), userId);
    const deps = {
      db: db(),
      stripe,
      log: server.log,
      clock: { now: () => Date.now() } as never,
      ...invoiceDeps(),
    };
    const young = await reconcileStripe(deps, { sinceMs: Date.now() - 60_000, graceMs: 60_000 });
    expect(young.waiting).toContain(orphan.id);
    expect(young.refunded).toEqual([]);
    const old = await reconcileStripe(deps, { sinceMs: Date.now() - 60_000, graceMs: 0 });
    expect(old.refunded).toEqual([orphan.id]);
    expect(chargeOf(orphan.id).refunded).toBe(true);
    const again = await reconcileStripe(deps, { sinceMs: Date.now() - 60_000, graceMs: 0 });
    // Refunded already: the next pass neither refunds nor reports it again.
    expect(again.refunded).toEqual([]);
    expect(again.waiting).toEqual([]);
    expect([...fake.refunds.values()].filter((r) => r.payment_intent === orphan.id)).toHaveLength(
      1,
    );
    expect(again.ordersWithoutCharge).toEqual([]);
    expect(
      server.log.lines.some((l) => l.includes(`payment ${orphan.id}`) && l.includes("refunded")),
    ).toBe(true);
  });
});
