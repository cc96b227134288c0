// Issue 20 item 3: an off-session renewal whose bank wants the customer (3-D Secure). The renewal
// goes to dunning with its own e-mail, whose link opens a page where the customer authenticates
// that same payment; once it has succeeded (read back from the provider) the period is paid:
// one order and one invoice, the subscription continues. Sandbox (card 4000 0027 6000 3184 and
// its authentication page) and Stripe (through the fake, driven by the real SDK).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { periodEnd } from "../../domain/calendar/index.ts";
import { DAY_MS } from "../clock.ts";
import { SandboxCharges } from "../db/ledger.ts";
import { Outbox } from "../db/outbox.ts";
import { Renewals } from "../db/renewals.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import type { PaymentProvider } from "../payments/provider.ts";
import { stripeClient } from "../payments/stripe.ts";
import { StripeFake } from "../payments/testing/stripe-fake.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";
import { fakeStripeClient, startStripeServer, stopStripeServer } from "../testing/stripe-server.ts";
import { chargesOfRenewal, renewalOrdersOf } from "../testing/tables.ts";
import { RenewalWorker } from "./renewals.ts";
import { reconcileStripe } from "./stripe-reconcile.ts";

const AUTHENTICATE_EVERY_PAYMENT = "4000002760003184";
const PASSWORD = "secret-1";

async function moveClock(server: TestServer, set: number): Promise<void> {
  const response = await fetch(`${server.running.url}/dev/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ set }),
  });
  expect(response.status).toBe(200);
}

/** The outbox's mail to `email`, oldest first (the outbox is what /dev/mailbox shows). */
async function mailsTo(server: TestServer, email: string) {
  // Outbox.latest answers the newest first.
  const mails = await Outbox.latest(server.running.deps.db, 1000, email);
  return mails.reverse().map(({ subject, body }) => ({ subject, body }));
}

/** The link of the newest "confirm your payment" e-mail, as a path of the server. */
async function paymentLink(server: TestServer, email: string): Promise<string> {
  const mail = (await mailsTo(server, email))
    .filter((m) => m.subject === "Confirm your payment to keep your subscription")
    .at(-1);
  const url = mail?.body.match(/http:\/\/\S+\/orders\/renewal\?\S+/)?.[0];
  if (!url) throw new Error(`no payment link mailed to ${email}`);
  return new URL(url).pathname + new URL(url).search;
}

async function invoiceCount(server: TestServer, email: string): Promise<number> {
  const client = await server.signedIn(email, PASSWORD);
  const answer = await client.call(api.invoices, { params: { page: 1 } });
  if (!answer.ok) throw new Error(answer.body.message);
  return answer.body.length;
}

/**
 * The renewal worker's next round run by a worker whose provider lets the customer pay the old
 * payment (`confirm`) just before the worker's next request that would replace it reaches the
 * provider (a new charge, or the cancel): the race an old tab wins or loses.
 */
async function roundWithConfirmFirst(
  server: TestServer,
  at: number,
  confirm: () => Promise<void>,
): Promise<void> {
  const deps = server.running.deps;
  let confirmed = false;
  const once = async () => {
    if (!confirmed) await confirm();
    confirmed = true;
  };
  const racing: PaymentProvider = {
    ...deps.payments,
    async charge(input) {
      if (input.offSession) await once();
      return deps.payments.charge(input);
    },
    async cancelPayment(input) {
      await once();
      return deps.payments.cancelPayment(input);
    },
  };
  await server.running.renewals?.stop();
  try {
    server.clock.set(at);
    await new RenewalWorker({ ...deps, payments: racing }, { intervalMs: 0 }).runOnce();
    expect(confirmed).toBe(true);
  } finally {
    server.running.renewals?.start();
  }
}

/** The first renewal paid by `payment` alone: one order, its first attempt, the next period. */
async function expectPaidOnce(server: TestServer, userId: number, payment: string, t0: number) {
  expect(await renewalOrders(server, userId)).toEqual([
    expect.objectContaining({ charge_ref: payment, total: 999 }),
  ]);
  expect(await Renewals.forUser(server.running.deps.db, userId)).toMatchObject([
    { state: "charged", attempts: 1 },
  ]);
  expect(await Subscriptions.get(server.running.deps.db, userId)).toMatchObject({
    orderEnd: periodEnd(t0, 1, 1),
  });
}

async function renewalOrders(server: TestServer, userId: number) {
  return renewalOrdersOf(server.running.deps.db, userId);
}

describe("sandbox: a renewal that needs the customer", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { CLOCK: "settable" }, renewals: { intervalMs: 0 } });
  });
  afterAll(async () => {
    await server.close();
  });

  async function saveCard(client: TestClient, number: string): Promise<void> {
    const token = await client.call(api.sandboxToken, {
      body: { number, expMonth: 12, expYear: 2040, cvc: "123", postalCode: "12345" },
    });
    if (!token.ok) throw new Error(token.body.message);
    const key = newKey();
    const save = () =>
      client.call(api.paymentToken, { body: { token: token.body.id }, idempotencyKey: key });
    let saved = await save();
    // 3184: its bank asks when the card is saved too (as Stripe's SetupIntent): the step, then
    // the same save again.
    if (!saved.ok && saved.body.action) {
      await step(client, saved.body.action.paymentId, "complete", "");
      saved = await save();
    }
    if (!saved.ok) throw new Error(saved.body.message);
  }

  /** Bought with 4242, then card 3184 saved: its renewals need the customer. */
  async function subscriber(email: string) {
    const { client, userId } = await server.verifiedAccount(email, PASSWORD);
    await client.call(api.address, { body: { country: "US", state: "OR" } });
    await saveCard(client, "4242424242424242");
    const t0 = server.clock.now();
    const bought = await client.call(api.upgrade, {
      body: { product: { code: "wv_single_1m" }, newCart: true },
      idempotencyKey: newKey(),
    });
    if (!bought.ok) throw new Error(bought.body.message);
    await saveCard(client, AUTHENTICATE_EVERY_PAYMENT);
    return { client, userId, due: periodEnd(t0, 0, 1), t0 };
  }

  const step = (client: TestClient, payment: string, action: string, back: string) =>
    client.fetch("/dev/sandbox/authenticate", {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ payment, action, return: back }).toString(),
    });

  it("mails a link to the payment; authenticating it pays the period once", async () => {
    const email = "renew-3ds@example.com";
    const { client, userId, due, t0 } = await subscriber(email);
    await moveClock(server, due);

    const [renewal] = await Renewals.forUser(server.running.deps.db, userId);
    expect(renewal).toMatchObject({
      state: "failed",
      attempts: 1,
      lastError: "authentication_required",
      paymentKey: `renewal:${renewal?.id}:1`,
    });
    expect(renewal?.paymentId).toMatch(/^ch_sandbox_/);
    // The grace days: the plan keeps working.
    const context = await (await server.signedIn(email, PASSWORD)).call(api.userContext);
    expect(context.ok && context.body).toMatchObject({
      productCode: "wv_single_1m",
      orderState: "automatic",
      isExpiredAccount: false,
    });
    const mail = (await mailsTo(server, email)).at(-1);
    expect(mail?.subject).toBe("Confirm your payment to keep your subscription");
    expect(mail?.body).toContain(
      "We could not charge $9.99 for your Power subscription: your bank asks you to confirm this payment yourself.",
    );

    const link = await paymentLink(server, email);
    // A stranger's guess at the token opens nothing.
    const forged = link.replace(/token=[^&]+/, "token=AAAA");
    expect((await fetch(`${server.running.url}${forged}`)).status).toBe(404);

    const shown = await fetch(`${server.running.url}${link}`);
    expect(shown.status).toBe(200);
    const text = await shown.text();
    expect(text).toContain("Confirm your payment");
    expect(text).toContain("$9.99");
    const sandboxPage = text.match(/href="(\/dev\/sandbox\/authenticate\?[^"]+)"/)?.[1];
    expect(sandboxPage).toBeDefined();
    const sandboxUrl = new URL(`http://x${(sandboxPage ?? "").replace(/&amp;/g, "&")}`);
    expect(sandboxUrl.searchParams.get("payment")).toBe(renewal?.paymentId);
    const authPage = await client.fetch(sandboxUrl.pathname + sandboxUrl.search);
    expect(await authPage.text()).toContain(">Complete</button>");

    const completed = await step(client, renewal?.paymentId ?? "", "complete", link);
    expect(completed.status).toBe(303);
    expect(completed.headers.get("location")).toBe(link);
    const paid = await fetch(`${server.running.url}${link}`);
    expect(await paid.text()).toContain("Payment received");

    expect(await renewalOrders(server, userId)).toEqual([
      expect.objectContaining({ charge_ref: renewal?.paymentId, total: 999 }),
    ]);
    expect(await invoiceCount(server, email)).toBe(2);
    const sub = await Subscriptions.get(server.running.deps.db, userId);
    expect(sub).toMatchObject({ orderState: "automatic", orderEnd: periodEnd(t0, 1, 1) });
    expect((await mailsTo(server, email)).at(-1)?.subject).toBe(
      "Payment received: your subscription continues",
    );

    // Replays: the page again, the step answered again, the retry day: nothing more.
    expect(await (await fetch(`${server.running.url}${link}`)).text()).toContain(
      "Payment received",
    );
    await step(client, renewal?.paymentId ?? "", "fail", link);
    await moveClock(server, due + 3 * DAY_MS);
    expect(await renewalOrders(server, userId)).toHaveLength(1);
    expect(await invoiceCount(server, email)).toBe(2);
    expect(await Renewals.forUser(server.running.deps.db, userId)).toMatchObject([
      { state: "charged", attempts: 1 },
    ]);
  });

  it("a failed step leaves dunning as it was: the next try on day 3, with a new link", async () => {
    const email = "renew-3ds-fail@example.com";
    const { client, userId, due } = await subscriber(email);
    await moveClock(server, due);
    const [renewal] = await Renewals.forUser(server.running.deps.db, userId);
    const link = await paymentLink(server, email);
    await step(client, renewal?.paymentId ?? "", "fail", link);
    const page = await fetch(`${server.running.url}${link}`);
    expect(await page.text()).toContain("The payment was not confirmed, and nothing was charged.");
    expect(await Renewals.forUser(server.running.deps.db, userId)).toMatchObject([
      { state: "failed", attempts: 1, nextAttemptAt: due + 3 * DAY_MS },
    ]);
    expect(await renewalOrders(server, userId)).toHaveLength(0);
    expect(await Subscriptions.get(server.running.deps.db, userId)).toMatchObject({
      productCode: "wv_single_1m",
      orderState: "automatic",
    });

    await moveClock(server, due + 3 * DAY_MS);
    const [retried] = await Renewals.forUser(server.running.deps.db, userId);
    expect(retried).toMatchObject({ state: "failed", attempts: 2 });
    expect(retried?.paymentId).not.toBe(renewal?.paymentId);
    const confirmMails = (await mailsTo(server, email)).filter(
      (m) => m.subject === "Confirm your payment to keep your subscription",
    );
    expect(confirmMails).toHaveLength(2);
  });

  const chargesOf = (renewalId: string) => chargesOfRenewal(server.running.deps.db, renewalId);

  it("the next attempt cancels the waiting payment first: an open page can no longer pay it, one new attempt", async () => {
    const email = "renew-3ds-replaced@example.com";
    const { client, userId, due } = await subscriber(email);
    await moveClock(server, due);
    const [first] = await Renewals.forUser(server.running.deps.db, userId);
    const old = first?.paymentId ?? "";
    const link = await paymentLink(server, email);
    // The page is open in a tab, its button pointing at the old payment.
    expect(await (await fetch(`${server.running.url}${link}`)).text()).toContain(old);

    await moveClock(server, due + 3 * DAY_MS);
    const [retried] = await Renewals.forUser(server.running.deps.db, userId);
    expect(retried).toMatchObject({ state: "failed", attempts: 2, paymentRetired: null });
    expect(retried?.paymentId).not.toBe(old);
    // Exactly one new attempt, and the old payment is cancelled.
    expect(await chargesOf(retried?.id ?? "")).toEqual([
      { id: old, error_code: "canceled" },
      { id: retried?.paymentId, error_code: "requires_action" },
    ]);
    // The old tab's step: the sandbox's page no longer offers it, and completing it pays nothing.
    expect((await client.fetch(`/dev/sandbox/authenticate?payment=${old}`)).status).toBe(404);
    await step(client, old, "complete", link);
    expect((await SandboxCharges.byId(server.running.deps.db, old))?.errorCode).toBe("canceled");
    expect(await renewalOrders(server, userId)).toHaveLength(0);
  });

  it("the old payment confirmed just before the next attempt: recorded once, no new charge", async () => {
    const email = "renew-3ds-race@example.com";
    const { client, userId, due, t0 } = await subscriber(email);
    await moveClock(server, due);
    const [first] = await Renewals.forUser(server.running.deps.db, userId);
    const old = first?.paymentId ?? "";
    await roundWithConfirmFirst(server, due + 3 * DAY_MS, async () => {
      expect((await step(client, old, "complete", "")).status).toBe(200);
    });
    await expectPaidOnce(server, userId, old, t0);
    expect(await chargesOf(first?.id ?? "")).toEqual([{ id: old, error_code: null }]);
  });

  it("a lapse cancels the payments that waited: the page says so, with no button", async () => {
    const email = "renew-3ds-lapse@example.com";
    const { userId, due } = await subscriber(email);
    await moveClock(server, due);
    const link = await paymentLink(server, email);
    await moveClock(server, due + 3 * DAY_MS);
    await moveClock(server, due + 7 * DAY_MS);
    const [lapsed] = await Renewals.forUser(server.running.deps.db, userId);
    expect(lapsed).toMatchObject({ state: "lapsed", attempts: 3, paymentRetired: "cancelled" });
    // None of the three payments can be paid any more.
    const charges = await chargesOf(lapsed?.id ?? "");
    expect(charges.map((c) => c.error_code)).toEqual(["canceled", "canceled", "canceled"]);
    const page = await fetch(`${server.running.url}${link}`);
    const text = await page.text();
    expect(page.status).toBe(200);
    expect(text).toContain("This payment was cancelled and can no longer be made.");
    expect(text).not.toContain("confirm-payment");
    expect(await renewalOrders(server, userId)).toHaveLength(0);
  });
});

describe("Stripe: a renewal that needs the customer, through the fake", () => {
  const fake = new StripeFake();
  let server: TestServer;
  beforeAll(async () => {
    server = await startStripeServer(fake, {
      renewals: { intervalMs: 0 },
      env: { CLOCK: "settable" },
      provider: { deadlineMs: 2_000, requestTimeoutMs: 600 },
    });
  });
  afterAll(() => stopStripeServer(server, fake));

  async function subscriber(email: string) {
    const { client, userId } = await server.verifiedAccount(email, PASSWORD);
    const save = (pm: string, key = newKey()) =>
      client.call(api.paymentToken, { body: { token: pm }, idempotencyKey: key });
    expect((await save("pm_card_visa")).ok).toBe(true);
    const t0 = server.clock.now();
    const bought = await client.call(api.upgrade, {
      body: { product: { code: "wv_single_1m" } },
      idempotencyKey: newKey(),
    });
    if (!bought.ok) throw new Error(bought.body.message);
    // 4000 0027 6000 3184 (saved with its bank's step done): every payment asks again.
    const key = newKey();
    const saved = await save("pm_card_authenticationRequired", key);
    if (!saved.ok) {
      // The bank's step when the card is saved, then the same request again (same key).
      fake.authenticate(saved.body.action?.paymentId ?? "", "complete");
      expect((await save("pm_card_authenticationRequired", key)).ok).toBe(true);
    }
    return { userId, due: periodEnd(t0, 0, 1), t0 };
  }

  /** The renewal's PaymentIntents at the fake, oldest first. */
  const intentsOf = (renewalId: string) =>
    [...fake.paymentIntents.values()].filter((p) =>
      p.metadata.order_key?.startsWith(`renewal:${renewalId}:`),
    );

  it("the page confirms the PaymentIntent with Stripe.js; the server records it once it succeeded", async () => {
    const email = "stripe-renew-3ds@example.com";
    const { userId, due, t0 } = await subscriber(email);
    await moveClock(server, due);
    const [renewal] = await Renewals.forUser(server.running.deps.db, userId);
    expect(renewal).toMatchObject({ state: "failed", lastError: "authentication_required" });
    const intent = fake.paymentIntents.get(renewal?.paymentId ?? "");
    expect(intent).toMatchObject({
      status: "requires_payment_method",
      metadata: { order_key: renewal?.paymentKey },
    });

    const link = await paymentLink(server, email);
    const shown = await fetch(`${server.running.url}${link}`);
    const text = await shown.text();
    expect(shown.status).toBe(200);
    expect(text).toContain(`data-secret="${intent?.client_secret}"`);
    expect(text).toContain('data-method="pm_card_authenticationRequired"');
    expect(text).toContain('data-key="pk_test_fake"');
    expect(shown.headers.get("content-security-policy")).toContain("script-src 'sha256-");
    expect(shown.headers.get("content-security-policy")).toContain("https://js.stripe.com");
    // Stripe.js is loaded by the page's own script when the button is pressed, not up front.
    expect(text).not.toContain("<script src=");

    // Not yet authenticated: nothing recorded.
    expect(await renewalOrders(server, userId)).toHaveLength(0);
    fake.authenticate(renewal?.paymentId ?? "", "complete");
    for (let i = 0; i < 2; i++) {
      expect(await (await fetch(`${server.running.url}${link}`)).text()).toContain(
        "Payment received",
      );
    }
    expect(await renewalOrders(server, userId)).toEqual([
      expect.objectContaining({ charge_ref: renewal?.paymentId, total: 999 }),
    ]);
    expect(
      fake.succeededPayments().filter((p) => p.metadata.order_key?.startsWith("renewal:")),
    ).toHaveLength(1);
    expect(await Subscriptions.get(server.running.deps.db, userId)).toMatchObject({
      orderEnd: periodEnd(t0, 1, 1),
    });
    expect(await invoiceCount(server, email)).toBe(2);
  });

  it("records nothing when the intent Stripe returns is not the renewal's (amount changed)", async () => {
    const email = "stripe-renew-mismatch@example.com";
    const { userId, due } = await subscriber(email);
    await moveClock(server, due);
    const [renewal] = await Renewals.forUser(server.running.deps.db, userId);
    const link = await paymentLink(server, email);
    fake.authenticate(renewal?.paymentId ?? "", "complete");
    const intent = fake.paymentIntents.get(renewal?.paymentId ?? "");
    if (intent) intent.amount = 1;
    const page = await fetch(`${server.running.url}${link}`);
    expect(page.status).toBe(503);
    expect(await renewalOrders(server, userId)).toHaveLength(0);
    expect(await Renewals.forUser(server.running.deps.db, userId)).toMatchObject([
      { state: "failed" },
    ]);
  });

  it("the next attempt cancels the waiting PaymentIntent: Stripe.js can no longer confirm it, one new attempt", async () => {
    const email = "stripe-renew-3ds-replaced@example.com";
    const { userId, due } = await subscriber(email);
    await moveClock(server, due);
    const [first] = await Renewals.forUser(server.running.deps.db, userId);
    const old = first?.paymentId ?? "";
    const link = await paymentLink(server, email);
    const secret = fake.paymentIntents.get(old)?.client_secret ?? "";
    expect(await (await fetch(`${server.running.url}${link}`)).text()).toContain(secret);

    await moveClock(server, due + 3 * DAY_MS);
    const [retried] = await Renewals.forUser(server.running.deps.db, userId);
    expect(retried).toMatchObject({ state: "failed", attempts: 2 });
    expect(intentsOf(first?.id ?? "").map((p) => p.id)).toEqual([old, retried?.paymentId]);
    expect(fake.paymentIntents.get(old)).toMatchObject({
      status: "canceled",
      cancellation_reason: "abandoned",
    });
    // The old tab's confirm (Stripe.js's POST /v1/payment_intents/:id/confirm) fails.
    const confirm = stripeClient("sk_test_fake", fake.url).paymentIntents.confirm(old, {
      payment_method: "pm_card_authenticationRequired",
    });
    await expect(confirm).rejects.toMatchObject({ code: "payment_intent_unexpected_state" });
    expect(() => fake.authenticate(old, "complete")).toThrow(/payment_intent_unexpected_state/);
    // The page now serves the new payment.
    const page = await (await fetch(`${server.running.url}${link}`)).text();
    expect(page).not.toContain(secret);
    expect(page).toContain(fake.paymentIntents.get(retried?.paymentId ?? "")?.client_secret ?? "?");
    expect(await renewalOrders(server, userId)).toHaveLength(0);
  });

  it("the old PaymentIntent confirmed just before the next attempt: recorded once, no new charge", async () => {
    const email = "stripe-renew-3ds-race@example.com";
    const { userId, due, t0 } = await subscriber(email);
    await moveClock(server, due);
    const [first] = await Renewals.forUser(server.running.deps.db, userId);
    const old = first?.paymentId ?? "";
    await roundWithConfirmFirst(server, due + 3 * DAY_MS, async () => {
      fake.authenticate(old, "complete");
    });
    await expectPaidOnce(server, userId, old, t0);
    expect(intentsOf(first?.id ?? "").map((p) => [p.id, p.status])).toEqual([[old, "succeeded"]]);
  });

  it("the cancel's answer lost: no new charge this round, the next round cancels it and tries again", async () => {
    const email = "stripe-renew-3ds-lost@example.com";
    const { userId, due } = await subscriber(email);
    await moveClock(server, due);
    const [first] = await Renewals.forUser(server.running.deps.db, userId);
    const old = first?.paymentId ?? "";
    // Every answer to the cancel is lost this round (the fake cancels, the worker never hears).
    for (let i = 0; i < 10; i++) {
      fake.fault("POST", `/v1/payment_intents/${old}/cancel`, { kind: "lose-answer" });
    }
    try {
      await moveClock(server, due + 3 * DAY_MS);
    } finally {
      fake.clearFaults();
    }
    expect(intentsOf(first?.id ?? "").map((p) => p.id)).toEqual([old]);
    expect(await Renewals.forUser(server.running.deps.db, userId)).toMatchObject([
      { state: "failed", attempts: 1, paymentId: old, paymentRetired: null },
    ]);

    await moveClock(server, due + 3 * DAY_MS + 60_000);
    const [retried] = await Renewals.forUser(server.running.deps.db, userId);
    expect(retried).toMatchObject({ state: "failed", attempts: 2, paymentRetired: null });
    expect(intentsOf(first?.id ?? "").map((p) => [p.id, p.status])).toEqual([
      [old, "canceled"],
      [retried?.paymentId, "requires_payment_method"],
    ]);
    expect(await renewalOrders(server, userId)).toHaveLength(0);
  });

  /** A renewal waiting for the customer, then the subscription cancelled from the account. */
  async function cancelledWhileWaiting(email: string) {
    const { userId, due } = await subscriber(email);
    await moveClock(server, due);
    const [first] = await Renewals.forUser(server.running.deps.db, userId);
    const link = await paymentLink(server, email);
    const client = await server.signedIn(email, PASSWORD);
    expect((await client.call(api.cancelSubscription, {})).body).toMatchObject({
      orderState: "cancelled",
    });
    return { userId, due, first, link };
  }

  it("a cancellation while a payment waits cancels it: the page says so, with no button", async () => {
    const { userId, due, first, link } = await cancelledWhileWaiting(
      "stripe-renew-3ds-cancelled@example.com",
    );
    await moveClock(server, due + 60_000);
    expect(fake.paymentIntents.get(first?.paymentId ?? "")?.status).toBe("canceled");
    const page = await fetch(`${server.running.url}${link}`);
    const text = await page.text();
    expect(page.status).toBe(200);
    expect(text).toContain("This payment was cancelled and can no longer be made.");
    expect(text).not.toContain("data-secret");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'none'");
    expect(await renewalOrders(server, userId)).toHaveLength(0);
  });

  it("a payment confirmed after its renewal stopped being due: no order, support is told, the page says so", async () => {
    const { userId, due, first, link } = await cancelledWhileWaiting(
      "stripe-renew-3ds-late@example.com",
    );
    // An old tab confirms the payment before the worker's next round could cancel it.
    fake.authenticate(first?.paymentId ?? "", "complete");
    const before = server.log.lines.length;
    await moveClock(server, due + 60_000);
    expect(await Renewals.forUser(server.running.deps.db, userId)).toMatchObject([
      { state: "closed", paymentRetired: "paid" },
    ]);
    expect(await renewalOrders(server, userId)).toHaveLength(0);
    const support = server.log.lines
      .slice(before)
      .filter((line) => line.startsWith("error renewals: SUPPORT"));
    expect(support).toEqual([
      expect.stringContaining(
        `renewal ${first?.id} of account ${userId}: payment ${first?.paymentId} (999 cents) was paid after its period stopped being due`,
      ),
    ]);
    // Told once: the renewal records it, and the next round does not ask again.
    await moveClock(server, due + 120_000);
    expect(server.log.lines.slice(before).filter((line) => line.includes("SUPPORT"))).toHaveLength(
      1,
    );
    const text = await (await fetch(`${server.running.url}${link}`)).text();
    expect(text).toContain("does not renew anything. We will refund it.");
    expect(text).not.toContain("data-secret");
    // Reconciliation keeps the page's word: the payment is refunded once, without a grace time.
    const { db, mailer, config } = server.running.deps;
    const reconcile = () =>
      reconcileStripe(
        {
          db,
          mailer,
          config,
          log: server.log,
          clock: server.clock,
          stripe: fakeStripeClient(fake),
        },
        { sinceMs: 0, graceMs: 24 * 3_600_000 },
      );
    expect((await reconcile()).refunded).toEqual([first?.paymentId]);
    expect((await reconcile()).refunded).toEqual([]); // a second pass finds it refunded
    expect(
      [...fake.refunds.values()].filter((r) => r.payment_intent === first?.paymentId),
    ).toHaveLength(1);
    expect(await renewalOrders(server, userId)).toHaveLength(0);
    // The error was expected: the server's close() fails on any other.
    server.log.lines.splice(server.log.lines.indexOf(support[0] ?? ""), 1);
  });
});
