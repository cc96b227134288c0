// Issue 33, item 1 (decision 0075): a refund or a lost dispute takes back exactly what its payment
// bought, and what rested on it, on the Stripe fake through the API: the owner and the team's
// member see it at once. Stripe's events are signed as Stripe signs them.
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { Instances, Invites } from "../db/instances.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import { StripeFake } from "../payments/testing/stripe-fake.ts";
import { newKey, type TestClient, type TestServer } from "../testing/harness.ts";
import { fakeStripeClient, startStripeServer, stopStripeServer } from "../testing/stripe-server.ts";
import { eventPayloads, refundsOfUser } from "../testing/tables.ts";
import { refundStripeOrder } from "./stripe-reconcile.ts";

const SECRET = "whsec_testsecret123";
const BUSINESS = "wv_bizoct17_12m";
const POWER = "wv_single_12m";
const UNLIMITED = "wv_unloct17_12m";
const fake = new StripeFake();
let server: TestServer;
let stripe: Stripe;

beforeAll(async () => {
  server = await startStripeServer(fake, { env: { STRIPE_WEBHOOK_SECRET: SECRET } });
  stripe = fakeStripeClient(fake);
});
afterAll(() => stopStripeServer(server, fake));

const db = () => server.running.deps.db;

async function deliver(event: Stripe.Event): Promise<number> {
  const payload = JSON.stringify(event);
  const signature = stripe.webhooks.generateTestHeaderString({
    payload,
    secret: SECRET,
    timestamp: Math.floor(Date.now() / 1000),
  });
  const response = await fetch(`${server.running.url}/api/5/webhooks/stripe`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
  return response.status;
}

const chargeOf = (paymentId: string) =>
  fake.charges.get(fake.paymentIntents.get(paymentId)?.latest_charge as string) as Stripe.Charge;

let n = 0;
async function customer(): Promise<{ client: TestClient; userId: number }> {
  n += 1;
  const made = await server.verifiedAccount(`standing${n}@example.com`, "secret-1");
  const saved = await made.client.call(api.paymentToken, {
    body: { token: "pm_card_visa" },
    idempotencyKey: newKey(),
  });
  if (!saved.ok) throw new Error(saved.body.message);
  return made;
}

/** Buys through the API; answers the order and the Stripe payment that paid for it. */
async function buy(
  client: TestClient,
  userId: number,
  body: { product: { code: string }; seats?: number; newCart?: boolean },
): Promise<{ orderId: string; paymentId: string; total: number }> {
  const before = new Set(fake.succeededPayments().map((p) => p.id));
  const order = await client.call(api.upgrade, { body, idempotencyKey: newKey() });
  if (!order.ok) throw new Error(order.body.message);
  const payment = fake
    .succeededPayments()
    .find((p) => !before.has(p.id) && p.metadata.order_key?.startsWith(`order:${userId}:`));
  if (!payment) throw new Error("no payment at Stripe");
  return { orderId: order.body.orderId, paymentId: payment.id, total: order.body.total };
}

/** What an account uses now, as the products call says. */
async function uses(client: TestClient): Promise<{ productCode: string; hasLicense: boolean }> {
  const products = await client.call(api.products);
  if (!products.ok) throw new Error(products.body.message);
  return { productCode: products.body.productCode, hasLicense: products.body.hasLicense };
}

/** Business annual with 3 seats, a member who joined, then a 4th seat bought as an addition. */
async function businessWithFourthSeat() {
  const owner = await customer();
  const first = await buy(owner.client, owner.userId, {
    product: { code: BUSINESS },
    seats: 3,
    newCart: true,
  });
  const instanceId = (await Users.byId(db(), owner.userId))?.instanceId;
  const instance = instanceId ? await Instances.byId(db(), instanceId) : null;
  if (!instance) throw new Error("no workspace");
  const code = `standing-invite-${n}`;
  await db().transaction((tx) =>
    Invites.insert(tx, {
      code,
      instanceId: instance.id,
      inviterUserId: owner.userId,
      email: null,
      createdAt: server.clock.now(),
      acceptedAt: null,
      acceptedBy: null,
    }),
  );
  const member = await server.verifiedAccount(`standing-member${n}@example.com`, "secret-1");
  const joined = await member.client.call(api.acceptInvite, { params: { code } });
  expect(joined.body).toMatchObject({ success: true });
  const seat = await buy(owner.client, owner.userId, { product: { code: BUSINESS }, seats: 4 });
  expect(await Subscriptions.get(db(), owner.userId)).toMatchObject({
    productCode: BUSINESS,
    seats: 4,
  });
  expect(await uses(member.client)).toEqual({ productCode: BUSINESS, hasLicense: true });
  return { owner, member, first, seat, instanceId: instance.id };
}

describe("a refund or lost dispute takes back what that payment bought (issue 33, item 1)", () => {
  it("a lost dispute of the first Business payment after a 4th seat: owner and member lose Business", async () => {
    const { owner, member, first, seat } = await businessWithFourthSeat();
    const dispute = fake.openDispute(first.paymentId);
    fake.closeDispute(dispute.id, "lost");
    expect(await deliver(fake.event("charge.dispute.closed", dispute))).toBe(200);
    expect(await uses(owner.client)).toEqual({ productCode: "wv_free", hasLicense: false });
    expect(await uses(member.client)).toEqual({ productCode: "wv_free", hasLicense: false });
    expect(await Subscriptions.get(db(), owner.userId)).toMatchObject({ expiredFlag: true });
    // The 4th seat alone is no plan: its payment fell with the first, flagged as owed back.
    const fell = await eventPayloads(db(), "payment_fell", owner.userId);
    expect(fell.map((e) => JSON.parse(e.payload))).toEqual([
      { orderId: seat.orderId, restedOn: first.orderId },
    ]);
    expect(server.log.lines).toContainEqual(
      expect.stringContaining(`SUPPORT order ${seat.orderId} rested on order ${first.orderId}`),
    );
  });

  it("a full charge.refunded of the first Business payment does the same", async () => {
    const { owner, member, first } = await businessWithFourthSeat();
    fake.dashboardRefund(first.paymentId);
    expect(await deliver(fake.event("charge.refunded", chargeOf(first.paymentId)))).toBe(200);
    expect(await uses(owner.client)).toEqual({ productCode: "wv_free", hasLicense: false });
    expect(await uses(member.client)).toEqual({ productCode: "wv_free", hasLicense: false });
  });

  it("refunding only the seat payment keeps the plan, with its 3 seats", async () => {
    const { owner, member, seat, instanceId } = await businessWithFourthSeat();
    fake.dashboardRefund(seat.paymentId);
    expect(await deliver(fake.event("charge.refunded", chargeOf(seat.paymentId)))).toBe(200);
    expect(await uses(owner.client)).toEqual({ productCode: BUSINESS, hasLicense: true });
    expect(await uses(member.client)).toEqual({ productCode: BUSINESS, hasLicense: true });
    expect(await Subscriptions.get(db(), owner.userId)).toMatchObject({
      productCode: BUSINESS,
      seats: 3,
      expiredFlag: false,
    });
    expect((await Instances.byId(db(), instanceId))?.maxSeats).toBe(3);
  });

  it("refunding the 4th seat keeps a 5th seat bought after it", async () => {
    const { owner, seat } = await businessWithFourthSeat();
    await buy(owner.client, owner.userId, { product: { code: BUSINESS }, seats: 5 });
    fake.dashboardRefund(seat.paymentId);
    expect(await deliver(fake.event("charge.refunded", chargeOf(seat.paymentId)))).toBe(200);
    expect(await Subscriptions.get(db(), owner.userId)).toMatchObject({
      productCode: BUSINESS,
      seats: 4,
      expiredFlag: false,
    });
  });

  it("the support command's refund of the seat payment goes the same way", async () => {
    const { owner, seat } = await businessWithFourthSeat();
    const deps = {
      db: db(),
      stripe,
      log: server.log,
      clock: server.clock,
      mailer: server.running.deps.mailer,
      config: server.running.deps.config,
    };
    expect(await refundStripeOrder(deps, { orderId: seat.orderId })).toMatchObject({
      amount: seat.total,
    });
    expect(await Subscriptions.get(db(), owner.userId)).toMatchObject({
      productCode: BUSINESS,
      seats: 3,
      expiredFlag: false,
    });
  });

  it("Power annual then Unlimited annual with Power's credit: a chargeback of Power does not leave Unlimited as if paid", async () => {
    const { client, userId } = await customer();
    const power = await buy(client, userId, { product: { code: POWER }, newCart: true });
    const unlimited = await buy(client, userId, { product: { code: UNLIMITED }, newCart: true });
    expect(await uses(client)).toMatchObject({ productCode: UNLIMITED });
    const dispute = fake.openDispute(power.paymentId);
    fake.closeDispute(dispute.id, "lost");
    expect(await deliver(fake.event("charge.dispute.closed", dispute))).toBe(200);
    expect(await uses(client)).toMatchObject({ productCode: "wv_free" });
    const fell = await eventPayloads(db(), "payment_fell", userId);
    expect(fell.map((e) => JSON.parse(e.payload))).toEqual([
      { orderId: unlimited.orderId, restedOn: power.orderId },
    ]);
  });

  it("Unlimited refunded alone: Power's paid year counts again, without renewing", async () => {
    const { client, userId } = await customer();
    const power = await buy(client, userId, { product: { code: POWER }, newCart: true });
    const powerEnd = (await Subscriptions.get(db(), userId))?.orderEnd;
    const unlimited = await buy(client, userId, { product: { code: UNLIMITED }, newCart: true });
    fake.dashboardRefund(unlimited.paymentId);
    expect(await deliver(fake.event("charge.refunded", chargeOf(unlimited.paymentId)))).toBe(200);
    expect(await uses(client)).toMatchObject({ productCode: POWER });
    expect(await Subscriptions.get(db(), userId)).toMatchObject({
      productCode: POWER,
      orderId: power.orderId,
      orderState: "cancelled",
      orderEnd: powerEnd,
      expiredFlag: false,
    });
  });

  it("an essentials add-on refunded alone takes back the add-on, and the plan stays", async () => {
    const { client, userId } = await customer();
    await buy(client, userId, { product: { code: POWER }, newCart: true });
    const added = await client.call(api.upgrade, {
      body: { product: { code: POWER }, addOns: ["wv_essentials_12m"] },
      idempotencyKey: newKey(),
    });
    if (!added.ok) throw new Error(added.body.message);
    expect(await uses(client)).toMatchObject({ productCode: "wv_single_plus_12m" });
    const payment = fake.succeededPayments().find((p) => p.amount === added.body.total);
    if (!payment) throw new Error("no payment at Stripe");
    fake.dashboardRefund(payment.id);
    expect(await deliver(fake.event("charge.refunded", chargeOf(payment.id)))).toBe(200);
    expect(await uses(client)).toMatchObject({ productCode: POWER });
  });

  it("a dispute of the first payment and a refund of the seat delivered at once: Business ends, each recorded once", async () => {
    const { owner, member, first, seat } = await businessWithFourthSeat();
    const dispute = fake.openDispute(first.paymentId);
    fake.closeDispute(dispute.id, "lost");
    fake.dashboardRefund(seat.paymentId);
    const events = [
      fake.event("charge.dispute.closed", dispute),
      fake.event("charge.refunded", chargeOf(seat.paymentId)),
    ];
    expect(await Promise.all([...events, ...events].map(deliver))).toEqual([200, 200, 200, 200]);
    expect(await uses(owner.client)).toEqual({ productCode: "wv_free", hasLicense: false });
    expect(await uses(member.client)).toEqual({ productCode: "wv_free", hasLicense: false });
    const refunds = await refundsOfUser(db(), owner.userId);
    expect(refunds).toEqual([
      { order_id: first.orderId, kind: "dispute_lost" },
      { order_id: seat.orderId, kind: "refund" },
    ]);
  });
});
