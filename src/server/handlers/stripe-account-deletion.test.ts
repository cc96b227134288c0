// Issue 33 item 4 with PAYMENTS=stripe, against the Stripe fake: deleting the account or
// converting it to free takes the saved card off the Stripe customer first (the PaymentMethod
// detached), so no renewal can charge it, and says billing stopped; while Stripe cannot be
// reached both are refused and nothing changes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { Outbox } from "../db/outbox.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import { StripeFake } from "../payments/testing/stripe-fake.ts";
import { newKey, type TestServer } from "../testing/harness.ts";
import { startStripeServer, stopStripeServer } from "../testing/stripe-server.ts";

const fake = new StripeFake();
let server: TestServer;

beforeAll(async () => {
  server = await startStripeServer(fake, {
    provider: { deadlineMs: 2_000, requestTimeoutMs: 600 },
  });
});
afterAll(() => stopStripeServer(server, fake));

let n = 0;
/** A monthly subscriber who paid with a saved card (renewals charge it off-session). */
async function subscriber() {
  n += 1;
  const email = `leaving${n}@example.com`;
  const { client, userId } = await server.verifiedAccount(email, "secret-1");
  const saved = await client.call(api.paymentToken, {
    body: { token: "pm_card_visa" },
    idempotencyKey: newKey(),
  });
  if (!saved.ok) throw new Error(saved.body.message);
  const bought = await client.call(api.upgrade, {
    body: { product: { code: "wv_single_1m" } },
    idempotencyKey: newKey(),
  });
  if (!bought.ok) throw new Error(bought.body.message);
  return { client, userId, email };
}

const detaches = () =>
  fake.requests.filter((r) => r.method === "POST" && r.path.endsWith("/detach")).length;
const stoppedMail = async (email: string) =>
  (await Outbox.latest(server.running.deps.db, 20, email)).find(
    (m) => m.subject === "Your billing has stopped",
  );

describe("a card customer who leaves stops paying", () => {
  it("deleting the account detaches the saved card at Stripe first, and says billing stopped", async () => {
    const { client, userId, email } = await subscriber();
    const before = detaches();
    expect((await client.call(api.deleteUser, { body: { forgetMe: true } })).ok).toBe(true);
    expect(detaches()).toBe(before + 1);
    expect(
      fake.requests.some(
        (r) => r.method === "POST" && r.path === "/v1/payment_methods/pm_card_visa/detach",
      ),
    ).toBe(true);
    expect(await Users.byId(server.running.deps.db, userId)).toBeNull();
    const mail = await stoppedMail(email);
    expect(mail?.body).toContain("Your account has been deleted, and your billing has stopped.");
    expect(mail?.body).toContain("Your saved card ending in 4242 is removed");
  });

  it("converting to free detaches the card and drops the renewal", async () => {
    const { client, userId, email } = await subscriber();
    const answer = await client.call(api.disbandInstance, {
      body: { reason: "", forgetMe: false, deleteOwner: false, deleteMembers: false },
    });
    expect(answer.ok).toBe(true);
    const db = server.running.deps.db;
    expect(await Users.byId(db, userId)).toMatchObject({ paymentMethod: null, cardLast4: null });
    expect(await Subscriptions.get(db, userId)).toMatchObject({
      productCode: "wv_free",
      orderState: "cancelled",
    });
    expect((await stoppedMail(email))?.body).toContain("now on the free plan");
  });

  it("refuses, changing nothing, while Stripe cannot be reached", async () => {
    const { client, userId, email } = await subscriber();
    for (let i = 0; i < 30; i++)
      fake.fault("POST", "/v1/payment_methods/pm_card_visa/detach", { kind: "rate-limit" });
    try {
      const answer = await client.call(api.deleteUser, { body: { forgetMe: true } });
      expect(answer.ok || [answer.status, answer.body.error_code]).toEqual([
        503,
        "billing_not_stopped",
      ]);
    } finally {
      fake.clearFaults();
    }
    const db = server.running.deps.db;
    expect(await Users.byId(db, userId)).toMatchObject({ paymentMethod: "pm_card_visa" });
    expect((await Subscriptions.get(db, userId))?.orderState).toBe("automatic");
    expect(await stoppedMail(email)).toBeUndefined();
  });
});
