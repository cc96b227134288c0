// Issue 18, item 2: education plans need a valid education e-mail (spec 6). Every education
// product (teacher, schools 12 and 6 months, the education trial) is refused on quote and on
// purchase to an account without a verified education address, before anything is charged; the
// 6-month schools plan stops at 50,000 seats like the 12-month one.
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

const db = () => server.running.deps.db;

async function buyer(email: string, verified: boolean): Promise<TestClient> {
  const client = server.client();
  const answer = await client.call(api.signUp, {
    body: { email, password: "secret-1", firstName: "Sam", lastName: "School" },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  if (verified)
    await db().transaction((tx) => Users.update(tx, answer.body.userId, { emailVerified: true }));
  const token = await client.call(api.sandboxToken, {
    body: { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123", postalCode: "1" },
  });
  if (!token.ok) throw new Error(token.body.message);
  await client.call(api.paymentToken, { body: { token: token.body.id }, idempotencyKey: newKey() });
  return client;
}

async function charges(): Promise<number> {
  return countCharges(db());
}

const EDUCATION_PLANS: [string, number | undefined][] = [
  ["wv_teacher_12m", undefined],
  ["wv_k12_12m", 30],
  ["wv_k12_6m", 30],
];

// Accounts, purchases and a year of renewals per test: more than the default 5 s on a busy machine.
describe("education plans need a verified education address", { timeout: 30_000 }, () => {
  it("refuses every education product to a business address, on quote and on purchase, charging nothing", async () => {
    const client = await buyer("cheap-team@example.com", true);
    const before = await charges();
    for (const [code, seats] of EDUCATION_PLANS) {
      const body = { targetProduct: code, ...(seats ? { seats } : {}) };
      expect(await client.call(api.orderSummary, { body }), code).toMatchObject({
        status: 403,
        body: { error_code: "education_email_required" },
      });
      const bought = await client.call(api.upgrade, {
        body: { product: { code }, newCart: true, ...(seats ? { seats } : {}) },
        idempotencyKey: newKey(),
      });
      expect(bought, code).toMatchObject({
        status: 403,
        body: {
          error_code: "education_email_required",
          message: expect.stringContaining("verified education e-mail"),
        },
      });
    }
    expect(
      await client.call(api.activateFreeTrial, {
        body: { vertical: "education" },
        idempotencyKey: newKey(),
      }),
    ).toMatchObject({ status: 403, body: { error_code: "education_email_required" } });
    expect(await charges()).toBe(before);
    const products = await client.call(api.products);
    expect(products.ok && products.body.productCode).toBe("wv_free");
  });

  it("refuses a school address that is not verified yet", async () => {
    const client = await buyer("unverified@school.edu", false);
    expect(
      await client.call(api.orderSummary, { body: { targetProduct: "wv_k12_12m", seats: 30 } }),
    ).toMatchObject({ status: 403, body: { error_code: "education_email_required" } });
  });

  it("quotes and sells the schools plan to a verified school address", async () => {
    const client = await buyer("head@school.edu", true);
    const quoted = await client.call(api.orderSummary, {
      body: { targetProduct: "wv_k12_12m", seats: 30 },
    });
    expect(quoted.ok).toBe(true);
    const bought = await client.call(api.upgrade, {
      body: { product: { code: "wv_k12_12m" }, newCart: true, seats: 30 },
      idempotencyKey: newKey(),
    });
    expect(bought.ok && bought.body.productCode).toBe("wv_k12_12m");
  });

  it("still shows a visitor the price the plans page shows", async () => {
    const visitor = server.client();
    const quoted = await visitor.call(api.orderSummary, {
      body: { targetProduct: "wv_k12_12m", seats: 30 },
    });
    expect(quoted.ok).toBe(true);
  });
});

// Accounts, purchases and a year of renewals per test: more than the default 5 s on a busy machine.
describe("the 6-month schools plan", { timeout: 30_000 }, () => {
  it("stops at 50,000 seats like the 12-month plan (it quoted 1,000,000)", async () => {
    const client = await buyer("district@school.edu", true);
    for (const code of ["wv_k12_6m", "wv_k12_12m"]) {
      const refused = await client.call(api.orderSummary, {
        body: { targetProduct: code, seats: 1_000_000 },
      });
      expect(refused, code).toMatchObject({
        status: 400,
        body: { message: expect.stringContaining("Online orders go up to 50,000 seats") },
      });
    }
    const top = await client.call(api.orderSummary, {
      body: { targetProduct: "wv_k12_6m", seats: 50_000 },
    });
    expect(top.ok).toBe(true);
  });
});
