// POST /api/5/team/invite (issue 34): the owner's open invitation link, the same one each time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { newKey, startTestServer, type TestServer } from "../testing/harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function owner(email: string) {
  const client = server.client();
  const up = await client.call(api.signUp, {
    body: { email, password: "secret-1", firstName: "Olive", lastName: "O" },
  });
  if (!up.ok) throw new Error(up.body.message);
  const token = await client.call(api.sandboxToken, {
    body: {
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2030,
      cvc: "123",
      postalCode: "94107",
    },
  });
  if (!token.ok) throw new Error(token.body.message);
  await client.call(api.paymentToken, { body: { token: token.body.id }, idempotencyKey: newKey() });
  const team = await client.call(api.upgrade, {
    body: { product: { code: "wv_bizoct17_1m" }, newCart: true },
    idempotencyKey: newKey(),
  });
  if (!team.ok) throw new Error(team.body.message);
  return client;
}

describe("the team's invitation link", () => {
  it("is the owner's, the same link each time, and opens the team's invitation", async () => {
    const client = await owner("invite-owner@example.com");
    const first = await client.call(api.teamInvite, { body: {} });
    if (!first.ok) throw new Error(first.body.message);
    expect(first.body.path).toMatch(/^\/cart\/invite\/[A-Za-z0-9_-]+$/);
    const again = await client.call(api.teamInvite, { body: {} });
    expect(again.ok && again.body.path).toBe(first.body.path);
    const code = first.body.path.split("/").at(-1) ?? "";
    const info = await server.client().call(api.inviteInfo, { params: { code } });
    expect(info.ok && info.body.instanceName).toBe("Olive's team");
  });

  it("is refused to an account that owns no team, and without a session", async () => {
    const client = server.client();
    await client.call(api.signUp, {
      body: { email: "no-team@example.com", password: "secret-1", firstName: "N", lastName: "T" },
    });
    expect(await client.call(api.teamInvite, { body: {} })).toMatchObject({
      status: 403,
      body: { error_code: "not_instance_owner" },
    });
    expect(await server.client().call(api.teamInvite, { body: {} })).toMatchObject({
      status: 401,
      body: { error_code: "not_authenticated" },
    });
  });
});
