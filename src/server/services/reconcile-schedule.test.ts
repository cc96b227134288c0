// The reconciliation of Stripe's payments on a schedule (reconcile-schedule.ts): every server with
// PAYMENTS=stripe runs it on its interval and when a settable clock moves; a payment left without
// an order is refunded once its grace hour has passed, however many passes and servers run; an
// order without a payment is logged for a person, every pass.
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { testClock } from "../clock.ts";
import { StripeFake } from "../payments/testing/stripe-fake.ts";
import { newKey, startTestServer, type TestServer } from "../testing/harness.ts";
import {
  fakeStripeClient,
  lostPayment,
  startStripeServer,
  stopStripeServer,
  stripeFakeEnv,
} from "../testing/stripe-server.ts";
import { ReconcileSchedule } from "./reconcile-schedule.ts";

const fake = new StripeFake();
let server: TestServer;
let stripe: Stripe;

beforeAll(async () => {
  server = await startStripeServer(fake, {
    // An order without its payment is logged as an error, for a person.
    allowServerErrors: true,
    // Stripe's objects carry real times: the server's clock starts at the real time.
    clock: testClock(Date.now()),
    // Only when the clock moves (and when kicked): the interval is tested below.
    reconcile: { intervalMs: 0 },
    env: { CLOCK: "settable" },
    provider: { deadlineMs: 2_000, requestTimeoutMs: 600 },
  });
  stripe = fakeStripeClient(fake);
});
afterAll(() => stopStripeServer(server, fake));

const refundsOf = (paymentId: string) =>
  [...fake.refunds.values()].filter((r) => r.payment_intent === paymentId);
const logged = (text: string) => server.log.lines.filter((line) => line.includes(text));

describe("the scheduled reconciliation", () => {
  it("runs when the clock moves: refunds a payment without an order after the grace hour, once, and logs each order without a payment", async () => {
    expect(server.running.reconcile).not.toBeNull();
    const { client, userId } = await server.verifiedAccount("reconcile@example.com", "secret-1");
    const saved = await client.call(api.paymentToken, {
      body: { token: "pm_card_visa" },
      idempotencyKey: newKey(),
    });
    expect(saved.ok).toBe(true);
    const bought = await client.call(api.upgrade, {
      body: { product: { code: "wv_single_1m" } },
      idempotencyKey: newKey(),
    });
    if (!bought.ok) throw new Error(bought.body.message);
    // The order's payment at Stripe no longer matches it (a person must look at it).
    const paid = fake.succeededPayments().find((p) => p.metadata.order_key?.includes(`${userId}`));
    if (!paid) throw new Error("no payment");
    paid.amount = 1;
    // A payment whose answer was lost and never asked for again: no order.
    const orphan = await lostPayment(stripe, server.running.deps.db, userId);

    await server.moveClock(10 * 60_000);
    await expect.poll(() => logged(`payment ${orphan.id}`).length).toBeGreaterThan(0);
    expect(logged(`payment ${orphan.id}`)[0]).toContain("left to its retry");
    expect(refundsOf(orphan.id)).toHaveLength(0);

    await server.moveClock(2 * 60 * 60_000);
    await expect.poll(() => refundsOf(orphan.id).length).toBe(1);
    // Another pass, and another server's at the same time: still the one refund.
    const other = new ReconcileSchedule(
      { ...server.running.deps, stripe, log: server.log },
      { intervalMs: 0 },
    );
    await Promise.all([other.kick(), server.running.reconcile?.kick()]);
    expect(refundsOf(orphan.id)).toHaveLength(1);
    const support = logged(`reconcile: SUPPORT order ${bought.body.orderId}`);
    expect(support.length).toBeGreaterThanOrEqual(2);
    expect(support[0]).toMatch(/^error /);
    expect(support[0]).toContain(`of account ${userId}`);
    expect(support[0]).toContain("npm run refund-order");
  });

  it("runs on its interval of real time, without any clock change", async () => {
    const before = logged("payments checked").length;
    const schedule = new ReconcileSchedule(
      { ...server.running.deps, stripe, clock: { now: () => Date.now() } },
      { intervalMs: 25 },
    );
    schedule.start();
    try {
      await expect.poll(() => logged("payments checked").length).toBeGreaterThan(before + 1);
    } finally {
      await schedule.stop();
    }
  });

  it("is off with RECONCILE_INTERVAL_SECONDS=0, and never runs in sandbox mode", async () => {
    const off = await startTestServer({
      seed: false,
      reconcile: undefined,
      env: stripeFakeEnv(fake, { RECONCILE_INTERVAL_SECONDS: "0" }),
    });
    const sandbox = await startTestServer({ seed: false, reconcile: { intervalMs: 1000 } });
    try {
      expect(off.running.reconcile).toBeNull();
      expect(sandbox.running.reconcile).toBeNull();
    } finally {
      await off.close();
      await sandbox.close();
    }
  });
});
