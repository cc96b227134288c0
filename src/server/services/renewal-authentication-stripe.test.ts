// Issue 20 item 3: an off-session renewal whose bank wants the customer (3-D Secure), paid once
// the customer authenticates that same payment. Here Stripe, through the fake driven by the real
// SDK.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { periodEnd } from "../../domain/calendar/index.ts";
import { DAY_MS } from "../clock.ts";
import { Renewals } from "../db/renewals.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { stripeClient } from "../payments/stripe.ts";
import { StripeFake } from "../payments/testing/stripe-fake.ts";
import { newKey, type TestServer } from "../testing/harness.ts";
import {
  expectPaidOnce,
  invoiceCount,
  moveClock,
  PASSWORD,
  paymentLink,
  renewalOrders,
  roundWithConfirmFirst,
} from "../testing/renewal-authentication-flow.ts";
import { fakeStripeClient, startStripeServer, stopStripeServer } from "../testing/stripe-server.ts";
import { reconcileStripe } from "./stripe-reconcile.ts";

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
