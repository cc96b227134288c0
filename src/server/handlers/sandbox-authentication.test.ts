// The sandbox's authentication cards and page (handlers/sandbox-authentication.ts): a purchase waits
// for the customer's step, the order is written only once the step completed and the charge is
// paid, a failed step charges nothing and is final for its key, and the page settles a step once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { Users } from "../db/users.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";
import { countCharges } from "../testing/tables.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

let accounts = 0;
async function buyerWithCard(number: string): Promise<TestClient> {
  const client = server.client();
  const signUp = await client.call(api.signUp, {
    body: {
      email: `auth-${++accounts}@example.com`,
      password: "secret-1",
      firstName: "Pat",
      lastName: "Buyer",
    },
  });
  if (!signUp.ok) throw new Error(signUp.body.message);
  // An address without sales tax: the total is the plan's price.
  await client.call(api.address, { body: { country: "US", state: "OR" } });
  const token = await client.call(api.sandboxToken, {
    body: {
      number,
      expMonth: 12,
      expYear: 2030,
      cvc: "123",
      postalCode: "94107",
    },
  });
  if (!token.ok) throw new Error(token.body.message);
  const key = newKey();
  let saved = await client.call(api.paymentToken, {
    body: { token: token.body.id },
    idempotencyKey: key,
  });
  // 3155: its bank asks when the card is saved; the step, then the same save again.
  if (!saved.ok && saved.body.action) {
    await answerStep(client, saved.body.action.paymentId, "complete");
    saved = await client.call(api.paymentToken, {
      body: { token: token.body.id },
      idempotencyKey: key,
    });
  }
  if (!saved.ok) throw new Error(saved.body.message);
  return client;
}

/** The last four digits of the newest account's saved card. */
async function savedLast4(): Promise<string | null | undefined> {
  const user = await Users.byEmail(server.running.deps.db, `auth-${accounts}@example.com`);
  return user?.cardLast4;
}

async function sandboxToken(client: TestClient, number: string): Promise<string> {
  const token = await client.call(api.sandboxToken, {
    body: { number, expMonth: 12, expYear: 2030, cvc: "123", postalCode: "94107" },
  });
  if (!token.ok) throw new Error(token.body.message);
  return token.body.id;
}

const purchase = {
  product: { code: "wv_single_1m", name: "Power" },
  newCart: true,
  expectedTotal: 999,
};

async function paidOrders(): Promise<number> {
  return countCharges(server.running.deps.db, "succeeded");
}

async function answerStep(client: TestClient, payment: string, action: string): Promise<Response> {
  return client.fetch("/dev/sandbox/authenticate", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ payment, action }).toString(),
  });
}

async function invoices(client: TestClient): Promise<unknown[]> {
  return (await (await client.fetch("/api/3/payment/invoices/1")).json()) as unknown[];
}

describe("sandbox authentication cards", () => {
  it("writes the order only once the step is completed", async () => {
    const client = await buyerWithCard("4000002760003184");
    const key = newKey();
    const first = await client.call(api.upgrade, {
      body: purchase,
      idempotencyKey: key,
    });
    expect(first).toMatchObject({
      status: 402,
      body: { error_code: "authentication_required" },
    });
    const action = first.ok ? undefined : first.body.action;
    expect(action?.url).toMatch(/^\/dev\/sandbox\/authenticate\?payment=ch_sandbox_/);
    // Asked again before the step: still waiting, nothing written.
    const waiting = await client.call(api.upgrade, {
      body: purchase,
      idempotencyKey: key,
    });
    expect(waiting).toMatchObject({
      status: 402,
      body: { error_code: "authentication_required" },
    });
    expect(await invoices(client)).toHaveLength(0);

    const shown = await client.fetch(action?.url ?? "");
    expect(shown.status).toBe(200);
    const text = await shown.text();
    expect(text).toContain("$9.99");
    expect(text).toContain(">Complete</button>");
    expect(text).toContain(">Fail</button>");

    const before = await paidOrders();
    expect((await answerStep(client, action?.paymentId ?? "", "complete")).status).toBe(200);
    // A second answer (another tab) changes nothing.
    await answerStep(client, action?.paymentId ?? "", "fail");
    const paid = await client.call(api.upgrade, {
      body: purchase,
      idempotencyKey: key,
    });
    expect(paid).toMatchObject({
      status: 200,
      body: { success: true, total: 999 },
    });
    expect(await paidOrders()).toBe(before + 1);
    expect(await invoices(client)).toHaveLength(1);
    // The page no longer offers a settled step.
    expect((await client.fetch(action?.url ?? "")).status).toBe(404);
  });

  it("a failed step charges nothing, and that answer is final for its key", async () => {
    const client = await buyerWithCard("4000002760003184");
    const key = newKey();
    const first = await client.call(api.upgrade, {
      body: purchase,
      idempotencyKey: key,
    });
    const paymentId = first.ok ? "" : (first.body.action?.paymentId ?? "");
    await answerStep(client, paymentId, "fail");
    for (let i = 0; i < 2; i++) {
      expect(await client.call(api.upgrade, { body: purchase, idempotencyKey: key })).toMatchObject(
        {
          status: 402,
          body: { error_code: "authentication_failed" },
        },
      );
    }
    expect(await invoices(client)).toHaveLength(0);
  });

  it("3178: completed, then declined for insufficient funds", async () => {
    const client = await buyerWithCard("4000008260003178");
    const key = newKey();
    const first = await client.call(api.upgrade, {
      body: purchase,
      idempotencyKey: key,
    });
    const paymentId = first.ok ? "" : (first.body.action?.paymentId ?? "");
    await answerStep(client, paymentId, "complete");
    expect(await client.call(api.upgrade, { body: purchase, idempotencyKey: key })).toMatchObject({
      status: 402,
      body: { error_code: "insufficient_funds" },
    });
    expect(await invoices(client)).toHaveLength(0);
  });

  it("3155 asks when the card is saved, as Stripe's SetupIntent does; its payments then need no step", async () => {
    const client = await buyerWithCard("4242424242424242");
    const token = await sandboxToken(client, "4000002500003155");
    const key = newKey();
    const asked = await client.call(api.paymentToken, { body: { token }, idempotencyKey: key });
    expect(asked).toMatchObject({ status: 402, body: { error_code: "authentication_required" } });
    const action = asked.ok ? undefined : asked.body.action;
    expect(action?.url).toMatch(/^\/dev\/sandbox\/authenticate\?payment=seti_sandbox_/);
    const shown = await (await client.fetch(action?.url ?? "")).text();
    expect(shown).toContain("Your card is being saved for later payments. Nothing is charged now.");
    // Not saved before the step: the account still has its 4242.
    expect(await savedLast4()).toBe("4242");
    await answerStep(client, action?.paymentId ?? "", "complete");
    const saved = await client.call(api.paymentToken, { body: { token }, idempotencyKey: key });
    expect(saved).toMatchObject({
      status: 200,
      body: { success: true, paymentMethod: { last4: "3155" } },
    });
    // A purchase with it needs no further step.
    const bought = await client.call(api.upgrade, { body: purchase, idempotencyKey: newKey() });
    expect(bought).toMatchObject({ status: 200, body: { success: true, total: 999 } });
    expect(await invoices(client)).toHaveLength(1);
  });

  it("3155's failed step when saved: authentication_failed, and the card is not saved", async () => {
    const client = await buyerWithCard("4242424242424242");
    const token = await sandboxToken(client, "4000002500003155");
    const key = newKey();
    const asked = await client.call(api.paymentToken, { body: { token }, idempotencyKey: key });
    await answerStep(client, asked.ok ? "" : (asked.body.action?.paymentId ?? ""), "fail");
    expect(
      await client.call(api.paymentToken, { body: { token }, idempotencyKey: key }),
    ).toMatchObject({ status: 402, body: { error_code: "authentication_failed" } });
    expect(await savedLast4()).toBe("4242");
  });

  it("off-session payments: 3155 succeeds, 3184 and 3178 need the customer", async () => {
    const { createSandboxProvider } = await import("../payments/sandbox.ts");
    const { db, clock } = server.running.deps;
    const provider = createSandboxProvider(db, clock);
    const cases = [
      ["4000002500003155", true],
      ["4000002760003184", false],
      ["4000008260003178", false],
    ] as const;
    for (const [number, ok] of cases) {
      await buyerWithCard(number);
      const customerId = (await Users.byEmail(db, `auth-${accounts}@example.com`))?.paymentCustomer;
      const key = newKey();
      const charged = await provider.charge({
        customerId: customerId ?? "",
        paymentMethodId: null,
        amount: 999,
        description: "renewal",
        idempotencyKey: key,
        orderKey: key,
        offSession: true,
        metadata: {},
      });
      // As Stripe's provider answers an off-session authentication_required: the payment waits
      // for the customer (a renewal's dunning e-mail links to its authentication page).
      expect(charged.ok ? "ok" : charged.kind === "card" ? charged.code : charged.kind).toBe(
        ok ? "ok" : "action",
      );
      if (!charged.ok && charged.kind === "action") {
        expect(charged.url).toMatch(/^\/dev\/sandbox\/authenticate\?payment=ch_sandbox_/);
      }
    }
  });
});
