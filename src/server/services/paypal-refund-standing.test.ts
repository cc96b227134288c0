// Issue 33, item 1 (decision 0075) on the PayPal fake: a reversal of the first Business payment,
// after a later PayPal payment took its credit, ends Business for the owner and the member, and
// PayPal bills no more. PayPal takes no mid-period seat additions (paypal_change_not_supported),
// so the later payment is the plan change PayPal does take: Business annual with a 4th seat,
// paid partly with the first payment's credit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { Instances, Invites } from "../db/instances.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import { FAKE_PAYPAL_CLIENT, FAKE_WEBHOOK_ID, FakePaypal } from "../testing/fake-paypal.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";

const MONTHLY = "wv_bizoct17_1m";
const ANNUAL = "wv_bizoct17_12m";
const HREF = "/cart#paypalCompleted";

let fake: FakePaypal;
let server: TestServer;

beforeAll(async () => {
  fake = new FakePaypal();
  await fake.start();
  server = await startTestServer({
    seed: false,
    env: {
      PAYPAL_CLIENT_ID: FAKE_PAYPAL_CLIENT.id,
      PAYPAL_CLIENT_SECRET: FAKE_PAYPAL_CLIENT.secret,
      PAYPAL_WEBHOOK_ID: FAKE_WEBHOOK_ID,
      PAYPAL_API_URL: fake.url,
    },
  });
});

afterAll(async () => {
  await server?.close();
  await fake?.stop();
});

const db = () => server.running.deps.db;

/** Prepares, approves at PayPal and confirms a subscription, as the buttons and the buyer do. */
async function subscribe(client: TestClient, code: string, seats: number) {
  const prepared = await client.call(api.paypalSubscription, {
    body: { product: { code }, newCart: true, href: HREF, seats },
    idempotencyKey: newKey(),
  });
  if (!prepared.ok || !prepared.body.subscription) throw new Error("not prepared");
  const terms = prepared.body.subscription;
  const sub = fake.approve({
    planId: terms.planId,
    customId: prepared.body.approvalId,
    quantity: terms.quantity,
    firstCycleUnitPrice: terms.firstCycleUnitPrice,
    status: "ACTIVE",
    at: new Date(server.clock.now()),
  });
  const confirmed = await client.call(api.paypalSubscription, {
    body: { product: { code }, newCart: true, href: HREF, subscriptionId: sub.id, seats },
    idempotencyKey: newKey(),
  });
  if (!confirmed.ok) throw new Error(confirmed.body.message);
  return { sub, total: prepared.body.paypal.totalAmount };
}

const deliver = (event: { headers: Record<string, string>; body: string }) =>
  fetch(`${server.running.url}/api/5/webhooks/paypal`, {
    method: "POST",
    headers: event.headers,
    body: event.body,
  }).then((r) => r.status);

async function uses(client: TestClient) {
  const products = await client.call(api.products);
  if (!products.ok) throw new Error(products.body.message);
  return { productCode: products.body.productCode, hasLicense: products.body.hasLicense };
}

describe("PayPal: a reversal takes back what that payment bought (issue 33, item 1)", () => {
  it("a reversal of the first Business sale after a later payment took its credit: owner and member lose Business", async () => {
    const owner = await server.verifiedAccount("pp-standing-owner@example.com", "secret-1");
    const first = await subscribe(owner.client, MONTHLY, 3);
    const firstSale = fake.sale(first.sub.id, first.total, new Date(server.clock.now()));
    expect(await deliver(fake.event("PAYMENT.SALE.COMPLETED", firstSale))).toBe(200);

    const instanceId = (await Users.byId(db(), owner.userId))?.instanceId ?? 0;
    expect(await Instances.byId(db(), instanceId)).not.toBeNull();
    await db().transaction((tx) =>
      Invites.insert(tx, {
        code: "pp-standing-invite",
        instanceId,
        inviterUserId: owner.userId,
        email: null,
        createdAt: server.clock.now(),
        acceptedAt: null,
        acceptedBy: null,
      }),
    );
    const member = await server.verifiedAccount("pp-standing-member@example.com", "secret-1");
    const joined = await member.client.call(api.acceptInvite, {
      params: { code: "pp-standing-invite" },
    });
    expect(joined.body).toMatchObject({ success: true });

    const later = await subscribe(owner.client, ANNUAL, 4);
    expect(fake.subscriptions.get(first.sub.id)?.status).toBe("CANCELLED");
    expect(await uses(member.client)).toEqual({ productCode: ANNUAL, hasLicense: true });

    const reversed = fake.event("PAYMENT.SALE.REVERSED", {
      id: firstSale.id,
      amount: { total: (first.total / 100).toFixed(2), currency: "USD" },
    });
    expect(await deliver(reversed)).toBe(200);
    expect(await deliver(reversed)).toBe(200);
    expect(await uses(owner.client)).toEqual({ productCode: "wv_free", hasLicense: false });
    expect(await uses(member.client)).toEqual({ productCode: "wv_free", hasLicense: false });
    expect(await Subscriptions.get(db(), owner.userId)).toMatchObject({ expiredFlag: true });
    // The annual plan rested on the reversed payment's credit: PayPal bills it no more.
    expect(fake.subscriptions.get(later.sub.id)?.status).toBe("CANCELLED");
  });
});
