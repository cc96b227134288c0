// What the services/renewals-*.test.ts files share (issue 11): a local run with CLOCK=settable whose
// renewal worker runs when POST /dev/clock moves the clock (it answers once the worker has caught
// up), subscribers, and what they were charged, invoiced and sent.
import { afterAll, beforeAll, expect } from "vitest";
import { api } from "../../contract/index.ts";
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import { orderSummary, type TaxLocation, taxAmount } from "../../domain/pricing/index.ts";
import { makeCampaign } from "../../domain/testing/builders.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import type { RenewalRun } from "../services/renewals.ts";
import { fixtureCatalog } from "./fixture-catalog.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "./harness.ts";
import { chargesOfCustomer } from "./tables.ts";

export const OK_CARD = "4242424242424242";
export const DECLINED_WHEN_CHARGED = "4000000000000341";

/** The fixture catalogue plus two targeted campaigns (a coupon is needed, so no other test sees them). */
export function catalog(): Catalog {
  const base = fixtureCatalog();
  const window = { validFrom: Date.UTC(2026, 0, 1), validTo: Date.UTC(2026, 1, 1) };
  return {
    ...base,
    campaigns: [
      ...base.campaigns,
      makeCampaign({
        id: "loyal",
        name: "Loyalty price",
        coupon: "loyal2026",
        targeted: true,
        recurring: true,
        ...window,
        prices: { wv_unloct17_1m: 1199 },
      }),
      makeCampaign({
        id: "intro",
        name: "Introductory price",
        coupon: "intro2026",
        targeted: true,
        recurring: false,
        ...window,
        prices: { wv_bizindiv_1m: 1999 },
      }),
    ],
  };
}

export let server: TestServer;
/** Bought on the first day, under the campaigns (they end on 1 February 2026). */
export let campaignBuyers: { intro: Subscriber; loyal: Subscriber };

export const db = () => server.running.deps.db;

export async function signUp(email: string): Promise<{ client: TestClient; userId: number }> {
  const client = server.client();
  const answer = await client.call(api.signUp, {
    body: { email, password: PASSWORD, firstName: "Rene", lastName: "Wal" },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  return { client, userId: answer.body.userId };
}

export async function saveCard(client: TestClient, number: string): Promise<void> {
  const token = await client.call(api.sandboxToken, {
    body: { number, expMonth: 12, expYear: 2040, cvc: "123", postalCode: "12345" },
  });
  if (!token.ok) throw new Error(token.body.message);
  const saved = await client.call(api.paymentToken, {
    body: { token: token.body.id },
    idempotencyKey: newKey(),
  });
  if (!saved.ok) throw new Error(saved.body.message);
}

export type Purchase = {
  code: string;
  addOns?: string[];
  coupon?: string;
  seats?: number;
  address?: { country: string; state?: string };
};

export type Subscriber = Awaited<ReturnType<typeof subscriber>>;

/** A new account with a card that buys `p` now; returns it with the time of purchase. */
export async function subscriber(email: string, p: Purchase) {
  const { client, userId } = await signUp(email);
  if (p.address) {
    const answer = await client.call(api.address, { body: p.address });
    if (!answer.ok) throw new Error(answer.body.message);
  }
  await saveCard(client, OK_CARD);
  const t0 = server.clock.now();
  const bought = await client.call(api.upgrade, {
    body: {
      product: { code: p.code },
      newCart: true,
      ...(p.addOns ? { addOns: p.addOns } : {}),
      ...(p.coupon ? { coupon: p.coupon } : {}),
      ...(p.seats ? { seats: p.seats } : {}),
    },
    idempotencyKey: newKey(),
  });
  if (!bought.ok) throw new Error(bought.body.message);
  return { email, client, userId, t0, order: bought.body };
}

/** Moves the clock through the development endpoint; answers once the worker has caught up. */
export async function moveClock(
  change: { advanceMs: number } | { set: number | string },
): Promise<RenewalRun> {
  const response = await fetch(`${server.running.url}/dev/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(change),
  });
  const body = (await response.json()) as { now: number; renewals: RenewalRun };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.renewals;
}

export const setClock = (ms: number) => moveClock({ set: ms });

export const PASSWORD = "secret-1";

/** A client signed in afresh: sessions last 30 days, and the clock moves by months. */
export function as(email: string): Promise<TestClient> {
  return server.signedIn(email, PASSWORD);
}

export async function invoices(email: string, processor: "cc" | "paypal" = "cc") {
  const client = await as(email);
  const answer = await client.call(processor === "cc" ? api.invoices : api.paypalInvoices, {
    params: { page: 1 },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  return answer.body;
}

export async function subscription(userId: number) {
  const sub = await Subscriptions.get(db(), userId);
  if (!sub) throw new Error(`no subscription for ${userId}`);
  return sub;
}

export async function chargesOf(
  userId: number,
): Promise<{ amount: number; error: string | null }[]> {
  return chargesOfCustomer(db(), `cus_sandbox_${userId}`);
}

export async function mailsTo(email: string): Promise<{ subject: string; body: string }[]> {
  const response = await fetch(
    `${server.running.url}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`,
  );
  const mails = (await response.json()) as { subject: string; body: string }[];
  return mails.reverse(); // oldest first
}

/** The charge the catalogue implies for buying `code` at `atMs` and for each renewal of it. */
export function implied(
  code: string,
  atMs: number,
  options: { tax?: TaxLocation; coupon?: string } = {},
) {
  const { catalog } = server;
  const summary = orderSummary(catalog, {
    targetProduct: code,
    atMs,
    tax: options.tax ?? { country: "US" },
    coupon: options.coupon,
  });
  const rate = summary.taxRates[0]?.ratePercent ?? 0;
  const recurring =
    summary.newSubscription.recurringBasePrice + summary.newSubscription.extraSeatsRecurringPrice;
  return { purchase: summary.total, renewal: recurring + taxAmount(recurring, rate) };
}

/** Starts the settable-clock server and buys the campaign buyers before a file's tests; closes it after them. */
export function startsRenewalServer(): void {
  beforeAll(async () => {
    server = await startTestServer({
      catalog: catalog(),
      env: { CLOCK: "settable" },
      renewals: { intervalMs: 0 },
    });
    campaignBuyers = {
      intro: await subscriber("intro@example.com", { code: "wv_bizindiv_1m", coupon: "intro2026" }),
      loyal: await subscriber("loyal@example.com", { code: "wv_unloct17_1m", coupon: "loyal2026" }),
    };
  });
  afterAll(async () => {
    await server.close();
  });
}
