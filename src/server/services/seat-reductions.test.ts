// Issue 18, item 3: a scheduled seat reduction and members who join later
// (docs/decisions/0027-seat-reductions.md). Nobody joins beyond the seats a scheduled reduction
// leaves, invitations to an address hold their seats, and a reduction that takes effect never
// leaves more people than paid seats.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { DAY_MS } from "../clock.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";

const PASSWORD = "secret-1";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { CLOCK: "settable" }, renewals: { intervalMs: 0 } });
});
afterAll(async () => {
  await server.close();
});

const db = () => server.running.deps.db;

const moveClock = (advanceMs: number) => server.moveClock(advanceMs);

/** A new account with a verified address. */
const account = (email: string) => server.verifiedAccount(email, PASSWORD);

async function teamOwner(email: string, seats: number) {
  const { client, userId } = await account(email);
  const token = await client.call(api.sandboxToken, {
    body: { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123", postalCode: "1" },
  });
  if (!token.ok) throw new Error(token.body.message);
  await client.call(api.paymentToken, { body: { token: token.body.id }, idempotencyKey: newKey() });
  const bought = await client.call(api.upgrade, {
    body: { product: { code: "wv_bizoct17_12m" }, newCart: true, seats },
    idempotencyKey: newKey(),
  });
  if (!bought.ok) throw new Error(bought.body.message);
  return { client, userId };
}

async function invite(owner: TestClient, email?: string): Promise<string> {
  const answer = await owner.fetch("/dev/invites", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(email ? { email } : {}),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { code: string }).code;
}

async function join(email: string, code: string) {
  const { client } = await account(email);
  return (await client.call(api.acceptInvite, { params: { code } })).body;
}

async function licence(owner: TestClient) {
  const answer = await owner.call(api.enterpriseLicense);
  if (!answer.ok) throw new Error(answer.body.message);
  return answer.body;
}

// Accounts, purchases and a year of renewals per test: more than the default 5 s on a busy machine.
describe("a scheduled seat reduction", { timeout: 30_000 }, () => {
  it("lets nobody join beyond the seats it leaves: 6 seats, 3 scheduled, 5 try to join", async () => {
    const owner = await teamOwner("reducing-owner@example.com", 6);
    const scheduled = await owner.client.call(api.upgrade, {
      body: { product: { code: "wv_bizoct17_12m" }, newCart: true, seats: 3 },
      idempotencyKey: newKey(),
    });
    expect(scheduled.ok && scheduled.body.scheduledChange).toMatchObject({ seats: 3 });
    const code = await invite(owner.client);
    const answers = [];
    for (let i = 1; i <= 5; i++) answers.push(await join(`late-joiner-${i}@example.com`, code));
    expect(answers.map((a) => "success" in a && a.success)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(answers[2]).toMatchObject({ failureReason: "no_seats" });

    await moveClock(366 * DAY_MS);
    const after = await licence(await server.signedIn("reducing-owner@example.com", PASSWORD));
    expect(after).toMatchObject({ maxSeats: 3, usedSeats: 3 });
    expect((await Subscriptions.get(db(), owner.userId))?.seats).toBe(3);
  });

  it("renews the seats in use when more people hold seats than were scheduled", async () => {
    // A reduction recorded while the team was larger (before joins were checked against it).
    const owner = await teamOwner("kept-owner@example.com", 6);
    const code = await invite(owner.client);
    for (let i = 1; i <= 4; i++)
      expect(await join(`kept-member-${i}@example.com`, code)).toMatchObject({ success: true });
    const sub = await Subscriptions.get(db(), owner.userId);
    await db().transaction((tx) =>
      Subscriptions.update(tx, owner.userId, {
        pendingProductCode: "wv_bizoct17_12m",
        pendingSeats: 3,
        pendingAt: sub?.orderEnd ?? 0,
      }),
    );
    await moveClock(366 * DAY_MS);
    expect((await Subscriptions.get(db(), owner.userId))?.seats).toBe(5);
    const after = await licence(await server.signedIn("kept-owner@example.com", PASSWORD));
    expect(after).toMatchObject({ maxSeats: 5, usedSeats: 5 });
  });
});

// Accounts, purchases and a year of renewals per test: more than the default 5 s on a busy machine.
describe("invitations to an address hold their seats", { timeout: 30_000 }, () => {
  it("keeps the invited person's seat from open joins and from a seat reduction", async () => {
    const owner = await teamOwner("holding-owner@example.com", 3);
    const held = await invite(owner.client, "held-seat@example.com");
    const open = await invite(owner.client);
    expect(await join("open-joiner-1@example.com", open)).toMatchObject({ success: true });
    // Owner, one member and the pending invitation: the team is full.
    expect(await join("open-joiner-2@example.com", open)).toMatchObject({
      success: false,
      failureReason: "no_seats",
    });
    // Fewer seats than are held cannot be scheduled.
    expect(
      await owner.client.call(api.upgrade, {
        body: { product: { code: "wv_bizoct17_12m" }, newCart: true, seats: 2 },
        idempotencyKey: newKey(),
      }),
    ).toMatchObject({ status: 409, body: { error_code: "seats_in_use" } });
    // The invited person takes the seat kept for them.
    expect(await join("held-seat@example.com", held)).toMatchObject({ success: true });
  });
});
