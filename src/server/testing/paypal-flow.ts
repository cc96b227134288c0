// The PayPal flow the services/paypal-*.test.ts files drive (issue 21): the fake of PayPal's REST
// API (testing/fake-paypal.ts, reached through PAYPAL_API_URL), a server on it, the buyer's steps.
// The browser's part is played by the test: it asks the server to prepare a subscription,
// "approves" it at the fake as a buyer would in PayPal's window, and sends the confirm call;
// PayPal's part (webhooks, renewals, refunds) is the fake's signed events posted to
// /api/5/webhooks/paypal.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { api } from "../../contract/index.ts";
import type { Db } from "../db/db.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import {
  FAKE_PAYPAL_CLIENT,
  FAKE_WEBHOOK_ID,
  FakePaypal,
  type SignedEvent,
} from "./fake-paypal.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "./harness.ts";

export const MONTHLY = "wv_single_1m";
export const MONTHLY_PRICE = 999;
export const HREF = "/cart#paypalCompleted";

export let fake: FakePaypal;
export let server: TestServer;

export function paypalEnv(url: string): Record<string, string> {
  return {
    PAYPAL_CLIENT_ID: FAKE_PAYPAL_CLIENT.id,
    PAYPAL_CLIENT_SECRET: FAKE_PAYPAL_CLIENT.secret,
    PAYPAL_WEBHOOK_ID: FAKE_WEBHOOK_ID,
    PAYPAL_API_URL: url,
  };
}

export const db = (): Db => server.running.deps.db;

export const PASSWORD = "pw-for-paypal-1";
export let accounts = 0;
export async function account(s: TestServer = server) {
  accounts += 1;
  const email = `paypal-${accounts}-${randomBytes(3).toString("hex")}@example.com`;
  return { ...(await s.verifiedAccount(email, PASSWORD)), email };
}

/** What the buttons' createSubscription asks the server for. */
export async function prepare(client: TestClient, code = MONTHLY, extra: { seats?: number } = {}) {
  const answer = await client.call(api.paypalSubscription, {
    body: { product: { code }, newCart: true, href: HREF, ...extra },
    idempotencyKey: newKey(),
  });
  if (!answer.ok) throw new Error(answer.body.message);
  const subscription = answer.body.subscription;
  if (!subscription) throw new Error("no PayPal subscription terms in the answer");
  return {
    orderKey: answer.body.approvalId,
    total: answer.body.paypal.totalAmount,
    ...subscription,
  };
}

/** The buyer approves in PayPal's window (the JS SDK's createSubscription with these terms). */
export function approveAtPaypal(
  prepared: Awaited<ReturnType<typeof prepare>>,
  override: { customId?: string; planId?: string; status?: "ACTIVE" | "APPROVAL_PENDING" } = {},
) {
  return fake.approve({
    planId: override.planId ?? prepared.planId,
    customId: override.customId ?? prepared.orderKey,
    quantity: prepared.quantity,
    firstCycleUnitPrice: prepared.firstCycleUnitPrice,
    status: override.status ?? "ACTIVE",
    at: new Date(server.clock.now()),
  });
}

/** onApprove: the confirm call with PayPal's subscription id. */
export function confirm(client: TestClient, subscriptionId: string, code = MONTHLY) {
  return client.call(api.paypalSubscription, {
    body: { product: { code }, newCart: true, href: HREF, subscriptionId },
    idempotencyKey: newKey(),
  });
}

export async function paypalInvoices(client: TestClient) {
  const answer = await client.call(api.paypalInvoices, { params: { page: 1 } });
  if (!answer.ok) throw new Error(answer.body.message);
  return answer.body;
}

/** Delivers until applied, as PayPal does with a 503 (the account was busy with a twin delivery). */
export async function deliverUntilApplied(event: SignedEvent, to: TestServer): Promise<number> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const response = await deliver(event, to);
    if (response.status !== 503) return response.status;
  }
  return 503;
}

export function deliver(event: SignedEvent, to: TestServer = server) {
  return fetch(`${to.running.url}/api/5/webhooks/paypal`, {
    method: "POST",
    headers: event.headers,
    body: event.body,
  });
}

export async function subscriptionOf(userId: number) {
  const sub = await Subscriptions.get(db(), userId);
  if (!sub) throw new Error("no subscription");
  return sub;
}

/** A subscriber confirmed through the whole flow. */
export async function subscriber(code = MONTHLY) {
  const { client, userId, email } = await account();
  const prepared = await prepare(client, code);
  const sub = approveAtPaypal(prepared);
  const confirmed = await confirm(client, sub.id, code);
  if (!confirmed.ok) throw new Error(confirmed.body.message);
  return {
    client,
    userId,
    email,
    sub,
    prepared,
    t0: server.clock.now(),
    orderId: confirmed.body.orderId,
  };
}

/** What PayPal refunded of a subscription's payments (Payments v2), as PayPal's amounts. */
export function refundsOf(subscriptionId: string): (string | undefined)[] {
  const sales = new Set((fake.transactions.get(subscriptionId) ?? []).map((t) => t.id));
  return [...fake.refunds.values()]
    .filter((r) => sales.has(r.captureId))
    .map((r) => r.amount?.value);
}

/** Starts the fake PayPal and a server on it before a file's tests, and stops both after them. */
export function startsPaypalServer(): void {
  beforeAll(async () => {
    fake = new FakePaypal();
    await fake.start();
    // The server logs an error for a stray subscription it could not cancel: none is expected.
    server = await startTestServer({ seed: false, env: paypalEnv(fake.url) });
  });
  afterAll(async () => {
    await server?.close();
    await fake?.stop();
  });
}
