// Issue 18, item 6: one trial per person. Plus tags, Gmail dots and googlemail.com are one
// person (domain/account/trials.ts), a deleted account's address is still counted, and a trial
// starts only once the address is verified.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { Users } from "../db/users.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function account(email: string, verified = true): Promise<TestClient> {
  const client = server.client();
  const answer = await client.call(api.signUp, {
    body: { email, password: "secret-1", firstName: "Tri", lastName: "Al" },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  if (verified) {
    await server.running.deps.db.transaction((tx) =>
      Users.update(tx, answer.body.userId, { emailVerified: true }),
    );
  }
  return client;
}

const startTrial = (client: TestClient, vertical = "unlimited") =>
  client.call(api.activateFreeTrial, { body: { vertical }, idempotencyKey: newKey() });

async function isTrial(client: TestClient): Promise<boolean> {
  const context = await client.call(api.userContext);
  return context.ok && context.body.isTrial;
}

// Accounts, purchases and a year of renewals per test: more than the default 5 s on a busy machine.
describe("one trial per person", { timeout: 30_000 }, () => {
  it("refuses a second trial to plus tags, Gmail dots and googlemail.com", async () => {
    const first = await account("pat.smith@gmail.com");
    expect((await startTrial(first)).ok).toBe(true);
    for (const variant of [
      "patsmith@gmail.com",
      "pat.smith+1@gmail.com",
      "p.a.t.s.m.i.t.h@googlemail.com",
      "PatSmith+trial@GoogleMail.com",
    ]) {
      const client = await account(variant);
      expect(await startTrial(client, "business"), variant).toMatchObject({
        status: 409,
        body: { error_code: "trial_not_available" },
      });
      expect(await isTrial(client), variant).toBe(false);
    }
    const other = await account("name@example.com");
    expect((await startTrial(other)).ok).toBe(true);
    const tagged = await account("name+2@example.com");
    expect(await startTrial(tagged)).toMatchObject({
      status: 409,
      body: { error_code: "trial_not_available" },
    });
    // Dots matter outside Gmail: another person.
    const dotted = await account("na.me@example.com");
    expect((await startTrial(dotted)).ok).toBe(true);
  });

  it("still counts the trial of an account that was deleted", async () => {
    const first = await account("again@example.com");
    expect((await startTrial(first)).ok).toBe(true);
    expect((await first.call(api.deleteUser, { body: { forgetMe: true } })).ok).toBe(true);
    const second = await account("again@example.com");
    expect(await startTrial(second)).toMatchObject({
      status: 409,
      body: { error_code: "trial_not_available" },
    });
  });

  it("starts a trial only for a verified address", async () => {
    const client = await account("unverified-trial@example.com", false);
    expect(await startTrial(client)).toMatchObject({
      status: 403,
      body: { error_code: "email_not_verified" },
    });
    expect(await isTrial(client)).toBe(false);
  });

  it("offers an expired trial no trial on the plans' trial list", async () => {
    const expired = await server.signedIn("expired@demo.test");
    const products = await expired.call(api.products);
    expect(products.ok && products.body["Purchasable Products Trial"]).toEqual([]);
    expect(await startTrial(expired)).toMatchObject({
      status: 409,
      body: { error_code: "trial_not_available" },
    });
  });
});
