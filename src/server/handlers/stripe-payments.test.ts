// The server with PAYMENTS=stripe, driven through the browser's client against the Stripe fake
// (payments/testing/stripe-fake.ts): purchases are PaymentIntents, and every fault of issue 20
// ends with exactly one charge and one order, or none of either, and the customer told the truth.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { apiError } from "../../domain/errors/api-errors.ts";
import {
  CARD_ERROR_MESSAGES,
  GENERIC_CARD_ERROR_MESSAGE,
} from "../../domain/errors/card-errors.ts";
import { Users } from "../db/users.ts";
import { createStripeProvider } from "../payments/stripe.ts";
import { StripeFake } from "../payments/testing/stripe-fake.ts";
import { reconcileStripe } from "../services/stripe-reconcile.ts";
import { newKey, startTestServer, TestClient, type TestServer } from "../testing/harness.ts";
import { openPglite } from "../testing/pglite.ts";
import {
  fakeStripeClient,
  startStripeServer,
  stopStripeServer,
  stripeFakeEnv,
} from "../testing/stripe-server.ts";
import { chargedOrdersOf } from "../testing/tables.ts";

const fake = new StripeFake();
let server: TestServer;
/** The provider's deadline here (the real one is 20 s, under the browser's 30 s). */
const DEADLINE_MS = 2_000;

beforeAll(async () => {
  server = await startStripeServer(fake, {
    provider: { deadlineMs: DEADLINE_MS, requestTimeoutMs: 600 },
  });
});
afterAll(() => stopStripeServer(server, fake));

let n = 0;
async function buyer(pm = "pm_card_visa"): Promise<{ client: TestClient; userId: number }> {
  n += 1;
  const { client, userId } = await server.verifiedAccount(`stripe${n}@example.com`, "secret-1");
  const saved = await client.call(api.paymentToken, {
    body: { token: pm },
    idempotencyKey: newKey(),
  });
  if (!saved.ok) throw new Error(saved.body.message);
  return { client, userId };
}

const buy = (client: TestClient, key: string) =>
  client.call(api.upgrade, { body: { product: { code: "wv_single_1m" } }, idempotencyKey: key });

async function ordersOf(userId: number) {
  return chargedOrdersOf(server.running.deps.db, userId);
}

const chargesOf = (userId: number) =>
  fake.succeededPayments().filter((p) => p.metadata.order_key?.startsWith(`order:${userId}:`));

describe("purchases through PaymentIntents", () => {
  it("saves the card as an off-session mandate and charges the summary total with the order key", async () => {
    const { client, userId } = await buyer();
    const user = await Users.byId(server.running.deps.db, userId);
    expect(user).toMatchObject({ paymentMethod: "pm_card_visa", cardLast4: "4242" });
    const key = newKey();
    const order = await buy(client, key);
    expect(order.ok && order.body.total).toBe(999);
    const [charge] = chargesOf(userId);
    expect(charge?.metadata.order_key).toBe(`order:${userId}:${key}`);
    expect(charge?.amount).toBe(999);
    expect(await ordersOf(userId)).toEqual([
      expect.objectContaining({ charge_ref: charge?.id, total: 999 }),
    ]);
  });

  it("shows Stripe's declines with the same section-8 message as the sandbox for the same test card", async () => {
    const { client } = await server.verifiedAccount("declines@example.com", "secret-1");
    const cases: [string, string, string][] = [
      [
        "pm_card_visa_chargeDeclinedInsufficientFunds",
        "insufficient_funds",
        GENERIC_CARD_ERROR_MESSAGE,
      ],
      ["pm_card_visa_chargeDeclined", "card_declined", CARD_ERROR_MESSAGES.card_declined],
      ["pm_card_visa_chargeDeclinedExpiredCard", "expired_card", CARD_ERROR_MESSAGES.expired_card],
      [
        "pm_card_visa_chargeDeclinedIncorrectCvc",
        "incorrect_cvc",
        CARD_ERROR_MESSAGES.incorrect_cvc,
      ],
    ];
    for (const [pm, code, message] of cases) {
      const answer = await client.call(api.paymentToken, {
        body: { token: pm },
        idempotencyKey: newKey(),
      });
      expect(answer).toMatchObject({ status: 402, body: { error_code: code, message } });
    }
  });
});

describe("faults: one charge and one order, or none of either, and the truth told", () => {
  it("the answer lost after the charge: 'being confirmed', then the same key finds the charge and writes the one order", async () => {
    const { client, userId } = await buyer();
    for (let i = 0; i < 30; i++) fake.fault("POST", "/v1/payment_intents", { kind: "lose-answer" });
    for (let i = 0; i < 30; i++)
      fake.fault("GET", "/v1/payment_intents/search", { kind: "5xx-no-error" });
    const key = newKey();
    const first = await buy(client, key);
    expect(first).toMatchObject({
      status: 409,
      body: { error_code: "payment_pending", message: apiError("payment_pending").body.message },
    });
    expect((first.body as { message: string }).message).toContain(
      "Your payment is being confirmed",
    );
    expect(chargesOf(userId)).toHaveLength(1);
    expect(await ordersOf(userId)).toHaveLength(0);
    fake.clearFaults();
    const retry = await buy(client, key);
    expect(retry.ok).toBe(true);
    expect(chargesOf(userId)).toHaveLength(1);
    expect(await ordersOf(userId)).toHaveLength(1);
    expect(server.log.lines.some((l) => l.includes(`order:${userId}:${key} is pending`))).toBe(
      true,
    );
  });

  it("the answer lost, then the same purchase with a new key: no second charge; it waits (Retry-After) until the first key settles it", async () => {
    const { client, userId } = await buyer();
    for (let i = 0; i < 30; i++) fake.fault("POST", "/v1/payment_intents", { kind: "lose-answer" });
    for (let i = 0; i < 30; i++)
      fake.fault("GET", "/v1/payment_intents/search", { kind: "5xx-no-error" });
    const first = newKey();
    expect((await buy(client, first)).body).toMatchObject({ error_code: "payment_pending" });
    expect(chargesOf(userId)).toHaveLength(1);
    fake.clearFaults();
    // Stripe answers again, and the customer clicks Pay again in a new checkout (a new key).
    for (let i = 0; i < 3; i++) {
      const other = await buy(client, newKey());
      expect(other).toMatchObject({
        status: 409,
        body: { error_code: "payment_pending", message: apiError("payment_pending").body.message },
      });
      expect(Number(other.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    expect(chargesOf(userId)).toHaveLength(1);
    expect(await ordersOf(userId)).toHaveLength(0);
    // The first key asked again finds its payment and writes the one order; then the account
    // buys as usual (the same plan again is refused as bought, with nothing charged).
    expect((await buy(client, first)).ok).toBe(true);
    const after = await buy(client, newKey());
    expect(after.body).not.toMatchObject({ error_code: "payment_pending" });
    expect(chargesOf(userId)).toHaveLength(1);
    expect(await ordersOf(userId)).toHaveLength(1);
  });

  it("a pending purchase never asked again: the reconciliation settles it first (refunded), then a new purchase charges once", async () => {
    const { client, userId } = await buyer();
    for (let i = 0; i < 30; i++) fake.fault("POST", "/v1/payment_intents", { kind: "lose-answer" });
    for (let i = 0; i < 30; i++)
      fake.fault("GET", "/v1/payment_intents/search", { kind: "5xx-no-error" });
    expect((await buy(client, newKey())).body).toMatchObject({ error_code: "payment_pending" });
    fake.clearFaults();
    expect((await buy(client, newKey())).body).toMatchObject({ error_code: "payment_pending" });
    const report = await reconcileStripe(
      // Stripe's times are the system's (the fake's), as the scheduled pass's clock is.
      { ...server.running.deps, stripe: fakeStripeClient(fake), clock: { now: () => Date.now() } },
      { sinceMs: Date.now() - 60_000, graceMs: 0 },
    );
    const [lost] = chargesOf(userId);
    expect(report.refunded).toContain(lost?.id);
    const bought = await buy(client, newKey());
    expect(bought.ok).toBe(true);
    const charges = chargesOf(userId);
    expect(charges).toHaveLength(2);
    // One payment stands, and it is the one the order holds.
    const standing = charges.filter(
      (p) => fake.charges.get(p.latest_charge as string)?.refunded !== true,
    );
    expect(standing.map((p) => p.id)).toEqual([(await ordersOf(userId))[0]?.charge_ref]);
  });

  it("a 5xx without an error object: never a card •••• 0000, never an order without a charge", async () => {
    n += 1;
    const { client, userId } = await server.verifiedAccount(`s5xx${n}@example.com`, "secret-1");
    fake.fault("POST", "/v1/setup_intents", { kind: "5xx-no-error" });
    const saved = await client.call(api.paymentToken, {
      body: { token: "pm_card_visa" },
      idempotencyKey: newKey(),
    });
    expect(saved.ok && saved.body.paymentMethod).toEqual({
      processor: "cc",
      brand: "visa",
      last4: "4242",
    });
    fake.fault("POST", "/v1/payment_intents", { kind: "5xx-no-error" });
    const order = await buy(client, newKey());
    expect(order.ok).toBe(true);
    expect(chargesOf(userId)).toHaveLength(1);
    expect(await ordersOf(userId)).toHaveLength(1);
  });

  it("slow answers past the browser's timeout: answered within the deadline, then one charge and one order", async () => {
    const { client, userId } = await buyer();
    for (let i = 0; i < 30; i++)
      fake.fault("POST", "/v1/payment_intents", { kind: "slow", ms: 3_000 });
    for (let i = 0; i < 30; i++)
      fake.fault("GET", "/v1/payment_intents/search", { kind: "slow", ms: 3_000 });
    const key = newKey();
    const started = Date.now();
    const first = await buy(client, key);
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 2_000);
    expect(first.body).toMatchObject({ error_code: "payment_pending" });
    fake.clearFaults();
    expect((await buy(client, key)).ok).toBe(true);
    expect(chargesOf(userId)).toHaveLength(1);
    expect(await ordersOf(userId)).toHaveLength(1);
  });

  it("429 throughout: 'nothing was charged' is the truth (no charge, no order), and the same key later buys once", async () => {
    const { client, userId } = await buyer();
    for (let i = 0; i < 30; i++) fake.fault("POST", "/v1/payment_intents", { kind: "rate-limit" });
    const key = newKey();
    const first = await buy(client, key);
    expect(first).toMatchObject({
      status: 503,
      body: { error_code: "payment_provider_unavailable" },
    });
    expect(chargesOf(userId)).toHaveLength(0);
    expect(await ordersOf(userId)).toHaveLength(0);
    fake.clearFaults();
    expect((await buy(client, key)).ok).toBe(true);
    expect(chargesOf(userId)).toHaveLength(1);
    expect(await ordersOf(userId)).toHaveLength(1);
  });

  it("a customer deleted in Stripe: the purchase is refused with nothing charged; saving the card again makes a new customer", async () => {
    const { client, userId } = await buyer();
    const before = await Users.byId(server.running.deps.db, userId);
    fake.deleteCustomer(before?.paymentCustomer as string);
    const refused = await buy(client, newKey());
    expect(refused).toMatchObject({ status: 400, body: { error_code: "invalid_card" } });
    expect(chargesOf(userId)).toHaveLength(0);
    expect(await ordersOf(userId)).toHaveLength(0);
    const saved = await client.call(api.paymentToken, {
      body: { token: "pm_card_visa" },
      idempotencyKey: newKey(),
    });
    expect(saved.ok).toBe(true);
    const after = await Users.byId(server.running.deps.db, userId);
    expect(after?.paymentCustomer).not.toBe(before?.paymentCustomer);
    expect((await buy(client, newKey())).ok).toBe(true);
    expect(chargesOf(userId)).toHaveLength(1);
    expect(await ordersOf(userId)).toHaveLength(1);
  });
});

describe("two servers on one database", () => {
  it("a purchase pending on one server makes a new key wait on the other: one charge", async () => {
    // Two servers in this process on one PostgreSQL database (PGlite), as a deployment runs
    // them: what holds the second purchase back is in the database, not in a server's memory.
    const shared = new StripeFake();
    const db = await openPglite();
    const database = {
      db: Object.create(db, { close: { value: async () => {} } }) as typeof db,
      secret: randomBytes(32),
      label: "PGlite",
    };
    const provider = { deadlineMs: DEADLINE_MS, requestTimeoutMs: 600 };
    const a = await startStripeServer(shared, { provider, database });
    const b = await startTestServer({
      seed: false,
      database,
      env: stripeFakeEnv(shared),
      payments: () =>
        createStripeProvider({
          secretKey: "sk_test_fake",
          apiUrl: shared.url,
          log: (line) => b.log.warn(line),
          ...provider,
        }),
    });
    try {
      const { client, userId } = await a.verifiedAccount("two@example.com", "secret-1");
      const saved = await client.call(api.paymentToken, {
        body: { token: "pm_card_visa" },
        idempotencyKey: newKey(),
      });
      expect(saved.ok).toBe(true);
      for (let i = 0; i < 30; i++)
        shared.fault("POST", "/v1/payment_intents", { kind: "lose-answer" });
      for (let i = 0; i < 30; i++)
        shared.fault("GET", "/v1/payment_intents/search", { kind: "5xx-no-error" });
      expect((await buy(client, newKey())).body).toMatchObject({ error_code: "payment_pending" });
      shared.clearFaults();
      const onB = new TestClient(b.running.url);
      const cookies = new Headers();
      for (const pair of client.cookieHeader.split("; ").filter(Boolean))
        cookies.append("set-cookie", `${pair}; Path=/`);
      onB.remember(cookies);
      const other = await buy(onB, newKey());
      expect(other).toMatchObject({ status: 409, body: { error_code: "payment_pending" } });
      const paid = shared
        .succeededPayments()
        .filter((p) => p.metadata.order_key?.startsWith(`order:${userId}:`));
      expect(paid).toHaveLength(1);
    } finally {
      await b.close();
      await stopStripeServer(a, shared);
      await db.close();
    }
  });
});

describe("3-D Secure on purchase", () => {
  async function needsAuthentication() {
    const account = await buyer();
    // A card that asks for authentication on every payment (4000 0027 6000 3184).
    await server.running.deps.db.transaction((tx) =>
      Users.update(tx, account.userId, { paymentMethod: "pm_card_authenticationRequired" }),
    );
    return account;
  }

  it("answers the bank's step; the order is written only once the payment succeeded", async () => {
    const { client, userId } = await needsAuthentication();
    const key = newKey();
    const first = await buy(client, key);
    expect(first).toMatchObject({ status: 402, body: { error_code: "authentication_required" } });
    const action = (first.body as { action?: { paymentId: string; clientSecret: string } }).action;
    expect(action?.clientSecret).toMatch(/^pi_.*_secret_/);
    expect(await ordersOf(userId)).toHaveLength(0);
    // Asked again before the customer finished: still the bank's step, still no order.
    expect((await buy(client, key)).body).toMatchObject({ error_code: "authentication_required" });
    fake.authenticate(action?.paymentId as string, "complete");
    const done = await buy(client, key);
    expect(done.ok).toBe(true);
    expect(chargesOf(userId)).toHaveLength(1);
    expect(await ordersOf(userId)).toHaveLength(1);
  });

  it("a failed authentication leaves no order and says so", async () => {
    const { client, userId } = await needsAuthentication();
    const key = newKey();
    const first = await buy(client, key);
    const action = (first.body as { action?: { paymentId: string } }).action;
    fake.authenticate(action?.paymentId as string, "fail");
    const failed = await buy(client, key);
    expect(failed).toMatchObject({
      status: 402,
      body: {
        error_code: "authentication_failed",
        message: apiError("authentication_failed").body.message,
      },
    });
    expect(chargesOf(userId)).toHaveLength(0);
    expect(await ordersOf(userId)).toHaveLength(0);
  });
});
