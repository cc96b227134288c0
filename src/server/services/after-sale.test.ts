// Issue 33, items 6 to 9: money that stays right after the sale, on a settable clock. Flex is paid
// once and says so (item 7), Essentials cancelled stays to the period end (item 8), and the
// renewal amount is one number wherever it is named (item 9).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { addMonthsClamped } from "../../domain/calendar/index.ts";
import { formatUsd } from "../../domain/pricing/index.ts";
import { DAY_MS } from "../clock.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";

const OK_CARD = "4242424242424242";
const PASSWORD = "secret-1";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { CLOCK: "settable" }, renewals: { intervalMs: 0 } });
});
afterAll(async () => {
  await server.close();
});

const db = () => server.running.deps.db;
const day = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

async function setClock(ms: number): Promise<void> {
  const response = await fetch(`${server.running.url}/dev/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ set: ms }),
  });
  expect(response.status).toBe(200);
}

async function mailsTo(email: string): Promise<{ subject: string; body: string }[]> {
  const response = await fetch(
    `${server.running.url}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`,
  );
  return ((await response.json()) as { subject: string; body: string }[]).reverse();
}

async function customer(
  email: string,
  address?: { country: string; state?: string; postalCode?: string },
): Promise<{ client: TestClient; userId: number }> {
  const client = server.client();
  const answer = await client.call(api.signUp, {
    body: { email, password: PASSWORD, firstName: "Ada", lastName: "Byron" },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  if (address) {
    const saved = await client.call(api.address, { body: address });
    if (!saved.ok) throw new Error(saved.body.message);
  }
  const token = await client.call(api.sandboxToken, {
    body: { number: OK_CARD, expMonth: 12, expYear: 2040, cvc: "123", postalCode: "94103" },
  });
  if (!token.ok) throw new Error(token.body.message);
  const card = await client.call(api.paymentToken, {
    body: { token: token.body.id },
    idempotencyKey: newKey(),
  });
  if (!card.ok) throw new Error(card.body.message);
  return { client, userId: answer.body.userId };
}

async function buy(client: TestClient, body: { code: string; seats?: number; addOns?: string[] }) {
  const bought = await client.call(api.upgrade, {
    body: {
      product: { code: body.code },
      newCart: true,
      ...(body.seats ? { seats: body.seats } : {}),
      ...(body.addOns ? { addOns: body.addOns } : {}),
    },
    idempotencyKey: newKey(),
  });
  if (!bought.ok) throw new Error(bought.body.message);
  return bought.body;
}

/** A client signed in afresh: sessions last 30 days, and the clock moves by months. */
function as(email: string): Promise<TestClient> {
  return server.signedIn(email, PASSWORD);
}

async function products(client: TestClient) {
  const answer = await client.call(api.products);
  if (!answer.ok) throw new Error(answer.body.message);
  return answer.body;
}

describe("Flex is a one-time purchase (item 7)", () => {
  it("is valid until a day, renews never, cannot be cancelled, and reminds before it runs out", async () => {
    const email = "flex@example.com";
    const { client, userId } = await customer(email);
    const t0 = server.clock.now();
    await buy(client, { code: "wv_flex2" });
    const end = addMonthsClamped(t0, 12);

    // No next renewal, but the day it runs out.
    expect(await products(client)).toMatchObject({
      productCode: "wv_flex2",
      nextBillingDate: null,
      nextBillingAmount: null,
      nextRenewal: null,
      validUntil: end,
    });
    expect(await client.call(api.cancelSubscription)).toMatchObject({
      status: 409,
      body: { error_code: "no_subscription" },
    });

    // Fourteen days before, one reminder with a way to buy again; another pass sends none more.
    await setClock(end - 20 * DAY_MS);
    expect((await mailsTo(email)).map((m) => m.subject)).not.toContain(
      `Your Flex pass runs out on ${day.format(end)}`,
    );
    await setClock(end - 10 * DAY_MS);
    await setClock(end - 9 * DAY_MS);
    const reminders = (await mailsTo(email)).filter(
      (m) => m.subject === `Your Flex pass runs out on ${day.format(end)}`,
    );
    expect(reminders).toHaveLength(1);
    expect(reminders[0]?.body).toContain(
      `Your Flex pass, paid once, is valid until ${day.format(end)}. It does not renew and nothing will be charged.`,
    );
    expect(reminders[0]?.body).toContain("/cart/plans");

    // At its end: Flex's own words, not "Your subscription has ended"; nothing charged.
    await setClock(end);
    expect(await Subscriptions.get(db(), userId)).toMatchObject({ productCode: "wv_free" });
    const subjects = (await mailsTo(email)).map((m) => m.subject);
    expect(subjects.at(-1)).toBe("Your Flex pass has run out");
    expect(subjects).not.toContain("Your subscription has ended");
    expect((await mailsTo(email)).at(-1)?.body).toContain(
      `Your Flex pass, paid once, was valid until ${day.format(end)}.`,
    );
  });
});

describe("cancelling Essentials keeps the paid period (item 8)", () => {
  it("stays until the period end, says until when, e-mails it, and the renewal drops it", async () => {
    const email = "essentials@example.com";
    const { client, userId } = await customer(email);
    const t0 = server.clock.now();
    await buy(client, { code: "wv_single_plus_1m" });
    const end = addMonthsClamped(t0, 1);

    const cancelled = await client.call(api.deleteEssentials);
    expect(cancelled.body).toEqual({ success: true, productCode: "wv_single_1m", endsAt: end });
    expect(await client.call(api.deleteEssentials)).toMatchObject({
      status: 409,
      body: { error_code: "no_essentials" },
    });
    // Still there for the month paid for; the renewal is Power's price alone.
    const info = await products(client);
    expect(info).toMatchObject({
      productCode: "wv_single_plus_1m",
      essentialsInfo: { hasEssentials: true, endsAt: end },
      nextBillingDate: end,
      nextBillingAmount: 999,
    });
    const mail = (await mailsTo(email)).find((m) => m.subject === "Essentials is cancelled");
    expect(mail?.body).toContain(
      `You keep it until ${day.format(end)}, the end of the period you paid for.`,
    );
    expect(mail?.body).toContain("Your Power plan then renews without it, at $9.99 every month");

    await setClock(end - 1);
    expect((await products(await as(email))).essentialsInfo.hasEssentials).toBe(true);
    await setClock(end);
    expect(await Subscriptions.get(db(), userId)).toMatchObject({
      productCode: "wv_single_1m",
      orderState: "automatic",
      orderEnd: addMonthsClamped(t0, 2),
    });
    const later = await as(email);
    const renewed = await products(later);
    expect(renewed.essentialsInfo).toMatchObject({ hasEssentials: false, endsAt: null });
    const list = await later.call(api.invoices, { params: { page: 1 } });
    expect(list.ok && list.body.map((i) => i.amountPaid).at(-1)).toBe(999);
  });
});

describe("the renewal amount is one number (item 9)", () => {
  it("is the same, tax included, in the seat-addition summary, the products call and the renewal charged", async () => {
    const email = "seats-renewal@example.com";
    const first = await customer(email, { country: "US", state: "CA", postalCode: "94103" });
    const t0 = server.clock.now();
    await buy(first.client, { code: "wv_bizoct17_12m", seats: 3 });
    const end = addMonthsClamped(t0, 12);
    await setClock(t0 + 30 * DAY_MS);
    const client = await as(email);

    const summary = await client.call(api.orderSummary, {
      body: { targetProduct: "wv_bizoct17_12m", seats: 4 },
    });
    if (!summary.ok) throw new Error(summary.body.message);
    expect(summary.body.change).toBe("addition");
    const renewal = summary.body.renewal;
    expect(renewal).toMatchObject({ at: end, termMonths: 12 });
    // California's tax is in it: more than the before-tax recurring figures the note used to show.
    const beforeTax =
      summary.body.newSubscription.recurringBasePrice +
      summary.body.newSubscription.extraSeatsRecurringPrice;
    expect(renewal?.tax).toBeGreaterThan(0);
    expect(renewal?.amount).toBe(beforeTax + (renewal?.tax ?? 0));

    await buy(client, { code: "wv_bizoct17_12m", seats: 4 });
    const info = await products(client);
    expect(info.nextBillingAmount).toBe(renewal?.amount);
    expect(info.nextRenewal).toEqual(renewal);

    await setClock(end);
    const list = await (await as(email)).call(api.invoices, { params: { page: 1 } });
    if (!list.ok) throw new Error(list.body.message);
    expect(list.body.at(-1)?.amountPaid).toBe(renewal?.amount);
    // The renewal's e-mail names the next one the same way, with its tax.
    const renewed = (await mailsTo(email)).find((m) => m.subject === "Your subscription renewed");
    expect(renewed?.body).toContain(
      `Next renewal: ${day.format(addMonthsClamped(t0, 24))}, ${formatUsd(renewal?.amount ?? 0)} every year (tax included).`,
    );
  });
});

describe("a US address needs its state, one its ZIP code agrees with (item 6)", () => {
  async function signedUp(email: string): Promise<{ client: TestClient; userId: number }> {
    const client = server.client();
    const answer = await client.call(api.signUp, {
      body: { email, password: PASSWORD, firstName: "Ada", lastName: "Byron" },
    });
    if (!answer.ok) throw new Error(answer.body.message);
    return { client, userId: answer.body.userId };
  }

  /** A POST answered as sent (the typed client keeps no `fields`). */
  async function post(client: TestClient, path: string, body: unknown) {
    const response = await client.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": newKey() },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  it("refuses an address without its state, or with a state its ZIP code disagrees with", async () => {
    const { client } = await signedUp("zip-state@example.com");
    const empty = await post(client, api.address.path, { country: "US", postalCode: "94103" });
    expect(empty).toMatchObject({
      status: 400,
      body: {
        error_code: "invalid_request",
        fields: [
          {
            path: "state",
            message: "Choose your state: it decides the sales tax of a US address.",
          },
        ],
      },
    });
    const oregon = await post(client, api.address.path, {
      country: "US",
      state: "OR",
      postalCode: "94103",
    });
    expect(oregon).toMatchObject({
      status: 400,
      body: {
        fields: [
          {
            path: "state",
            message:
              "ZIP code 94103 is in California, not Oregon. Check the state or the ZIP code.",
          },
        ],
      },
    });
    // California with 94103: Power monthly 9.99 plus 7.25 % is 10.71, the line called Sales tax.
    const ca = await client.call(api.address, {
      body: { country: "US", state: "CA", postalCode: "94103" },
    });
    expect(ca.ok).toBe(true);
    const summary = await client.call(api.orderSummary, {
      body: { targetProduct: "wv_single_1m" },
    });
    expect(summary.ok && summary.body).toMatchObject({ total: 1071, taxLabel: "Sales tax" });
  });

  it("prices and charges nothing for a saved US address without its state", async () => {
    const { client, userId } = await signedUp("no-state@example.com");
    // A row saved before the address call checked states.
    await Users.update(db(), userId, {
      country: "US",
      stateCode: null,
      address: { country: "US", postalCode: "94103" },
    });
    const summary = await post(client, api.orderSummary.path, { targetProduct: "wv_single_1m" });
    expect(summary).toMatchObject({
      status: 400,
      body: { error_code: "invalid_request", fields: [{ path: "state" }] },
    });
    const bought = await post(client, api.upgrade.path, {
      product: { code: "wv_single_1m" },
      newCart: true,
    });
    expect(bought).toMatchObject({ status: 400, body: { fields: [{ path: "state" }] } });
    const list = await client.call(api.invoices, { params: { page: 1 } });
    expect(list.ok && list.body).toEqual([]);
  });

  it("calls the tax line VAT or GST outside the US, on the summary and the invoice", async () => {
    const { client } = await signedUp("vat-label@example.com");
    await client.call(api.address, { body: { country: "AU", state: "NSW", postalCode: "2000" } });
    const summary = await client.call(api.orderSummary, {
      body: { targetProduct: "wv_single_1m" },
    });
    expect(summary.ok && summary.body.taxLabel).toBe("GST");
    await client.call(api.address, { body: { country: "DE", postalCode: "10115" } });
    const german = await client.call(api.orderSummary, { body: { targetProduct: "wv_single_1m" } });
    expect(german.ok && german.body.taxLabel).toBe("VAT");
  });
});
