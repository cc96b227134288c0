import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { Instances } from "../db/instances.ts";
import { Users } from "../db/users.ts";
import { startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";
import { eventKindsAndNames } from "../testing/tables.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function newAccount(email: string) {
  const client = server.client();
  const answer = await client.call(api.signUp, {
    body: { email, password: "secret-1", firstName: "Sam", lastName: "Sample" },
  });
  if (!answer.ok) throw new Error(answer.body.message);
  return client;
}

/** Verifies the account's address with the code from the sandbox mailbox. */
async function verifyAddress(client: TestClient, email: string): Promise<void> {
  const mails = (await (
    await fetch(`${server.running.url}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`)
  ).json()) as { subject: string }[];
  const code = /(\d{6})/.exec(mails[0]?.subject ?? "")?.[1] ?? "";
  const answer = await client.call(api.verifyEmailCode, { body: { code } });
  if (!answer.ok) throw new Error(answer.body.message);
}

describe("coupons", () => {
  it("verifies campaign coupons within their window only", async () => {
    const client = await newAccount("coupon@example.com");
    const vip = await client.call(api.verifyCoupon, { params: { code: "VIPCOUPON" } });
    expect(vip.ok && vip.body).toMatchObject({
      success: true,
      instanceName: null,
      campaign: { id: "vip", targeted: true },
    });
    expect(await client.call(api.verifyCoupon, { params: { code: "oldcoupon" } })).toMatchObject({
      status: 409,
      body: { error_code: "coupon_not_active" },
    });
    expect(await client.call(api.verifyCoupon, { params: { code: "nothing" } })).toMatchObject({
      status: 404,
      body: { error_code: "coupon_not_found" },
    });
  });

  it("applies a targeted campaign to the account's quotes", async () => {
    const client = await newAccount("coupon2@example.com");
    const before = await client.call(api.orderSummary, {
      body: { targetProduct: "wv_unloct17_12m", seats: 1 },
    });
    const applied = await client.call(api.applyCoupon, { params: { code: "vipcoupon" } });
    expect(applied.body).toEqual({ success: true, reason: "campaign_applied", instanceName: null });
    const after = await client.call(api.orderSummary, {
      body: { targetProduct: "wv_unloct17_12m", seats: 1 },
    });
    expect(before.ok && before.body.total).toBe(9588);
    expect(after.ok && after.body.total).toBe(4794);
    const context = await client.call(api.userContext);
    expect(context.ok && context.body.targetedPricingCampaign).toBe("vipcoupon");
  });

  it("joins a team workspace by its coupon", async () => {
    const client = await newAccount("joiner@example.com");
    const verify = await client.call(api.verifyCoupon, { params: { code: "demoteam" } });
    expect(verify.ok && verify.body.instanceName).toBe("demo-team");
    const apply = await client.call(api.applyCoupon, { params: { code: "demoteam" } });
    expect(apply.body).toEqual({
      success: true,
      reason: "joined_instance",
      instanceName: "demo-team",
    });
    const context = await client.call(api.userContext);
    expect(context.ok && context.body).toMatchObject({
      isUserEnterpriseMember: true,
      productCode: "wv_bizoct17_12m",
    });
  });
});

describe("invitations", () => {
  it("shows an invitation to anyone and asks a subscriber to cancel first", async () => {
    const info = await server.client().call(api.inviteInfo, { params: { code: "demo-invite" } });
    expect(info.ok && info.body).toMatchObject({
      instanceName: "demo-team",
      inviterName: "Olivia Owner",
      email: null,
    });
    expect((await server.client().call(api.inviteInfo, { params: { code: "nope" } })).status).toBe(
      404,
    );

    const subscriber = await server.signedIn("monthly@demo.test");
    const refused = await subscriber.call(api.acceptInvite, { params: { code: "demo-invite" } });
    expect(refused.body).toEqual({
      success: false,
      failureReason: "active_subscription",
      instanceName: "demo-team",
    });
    const accepted = await subscriber.call(api.acceptInvite, {
      params: { code: "demo-invite" },
      query: { cancelSubscription: "true" },
    });
    expect(accepted.body).toEqual({
      success: true,
      failureReason: null,
      instanceName: "demo-team",
    });
    const context = await subscriber.call(api.userContext);
    expect(context.ok && context.body).toMatchObject({
      isUserEnterpriseMember: true,
      prevOrderState: "automatic",
    });
    const again = await subscriber.call(api.acceptInvite, { params: { code: "demo-invite" } });
    expect(again.body).toMatchObject({ success: false, failureReason: "already_member" });
  });
});

describe("invitation refusals", () => {
  /** An invitation to demo-team made by its owner through the local run's /dev/invites. */
  async function devInvite(email?: string): Promise<string> {
    const owner = await server.signedIn("owner@demo.test");
    const answer = await owner.fetch("/dev/invites", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(email ? { email } : {}),
    });
    expect(answer.status).toBe(200);
    const { code } = (await answer.json()) as { code: string };
    return code;
  }

  it("refuses a managed account, then a used or misaddressed invitation, then a full team", async () => {
    const po = await server.signedIn("po@demo.test");
    expect((await po.call(api.acceptInvite, { params: { code: "demo-invite" } })).body).toEqual({
      success: false,
      failureReason: "managed_account",
      instanceName: "demo-team",
    });

    const bound = await devInvite("bound@example.com");
    const stranger = await newAccount("stranger@example.com");
    expect((await stranger.call(api.acceptInvite, { params: { code: bound } })).body).toMatchObject(
      { success: false, failureReason: "wrong_email" },
    );
    const invited = await newAccount("bound@example.com");
    await verifyAddress(invited, "bound@example.com");
    expect((await invited.call(api.acceptInvite, { params: { code: bound } })).body).toMatchObject({
      success: true,
    });
    const late = await newAccount("late@example.com");
    expect((await late.call(api.acceptInvite, { params: { code: bound } })).body).toMatchObject({
      success: false,
      failureReason: "used",
    });

    // demo-team has 5 seats: owner, member, the coupon's joiner, the subscriber and bound@.
    const sixth = await newAccount("sixth@example.com");
    expect((await sixth.call(api.acceptInvite, { params: { code: "demo-invite" } })).body).toEqual({
      success: false,
      failureReason: "no_seats",
      instanceName: "demo-team",
    });
    expect((await sixth.call(api.userContext)).body).toMatchObject({
      isUserEnterpriseMember: false,
    });
  });

  it("issue 18, item 13: compares verified addresses only, and shows the address masked", async () => {
    const bound = await devInvite("jane.invited@example.com");
    const info = await server.client().call(api.inviteInfo, { params: { code: bound } });
    expect(info.ok && info.body.email).toBe("j***@example.com");
    // Whoever has the code signs up with the invited address, unverified: not enough.
    const taker = await newAccount("jane.invited@example.com");
    expect((await taker.call(api.acceptInvite, { params: { code: bound } })).body).toEqual({
      success: false,
      failureReason: "email_not_verified",
      instanceName: "demo-team",
    });
    expect((await taker.call(api.userContext)).body).toMatchObject({
      isUserEnterpriseMember: false,
    });
  });

  it("makes invitations in a local run for a team's owner only", async () => {
    const free = await server.signedIn("free@demo.test");
    const answer = await free.fetch("/dev/invites", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ error_code: "not_instance_owner" });
  });
});

describe("leaving and converting to free", () => {
  it("lets a member leave but not the owner", async () => {
    const member = await server.signedIn("member@demo.test");
    const license = await member.call(api.enterpriseLicense);
    const id = license.ok ? license.body.instanceId : -1;
    expect(await member.call(api.leaveInstance, { params: { id: 9999 } })).toMatchObject({
      status: 404,
    });
    expect((await member.call(api.leaveInstance, { params: { id } })).body).toEqual({
      success: true,
      productCode: "wv_free",
    });
    expect((await member.call(api.userContext)).body).toMatchObject({
      isUserEnterpriseMember: false,
      productCode: "wv_free",
    });
    const owner = await server.signedIn("owner@demo.test");
    expect(await owner.call(api.leaveInstance, { params: { id } })).toMatchObject({
      status: 409,
      body: { error_code: "owner_cannot_leave" },
    });
  });

  it("disbands the owner's workspace on convert to free", async () => {
    const owner = await server.signedIn("owner@demo.test");
    const answer = await owner.call(api.disbandInstance, {
      body: { reason: "too expensive", forgetMe: false, deleteOwner: false, deleteMembers: false },
    });
    expect(answer.body).toEqual({ success: true, productCode: "wv_free" });
    expect((await owner.call(api.userContext)).body).toMatchObject({
      productCode: "wv_free",
      orderState: "cancelled",
      prevOrderState: "automatic",
    });
    const joiner = await server.signedIn("monthly@demo.test");
    const info = await joiner.call(api.userInfo);
    expect(info.ok && info.body).toMatchObject({ enterpriseMember: false, memberState: null });
  });
});

describe("cancellations", () => {
  it("cancels a trial (DELETE /api/4/user/)", async () => {
    const client = await server.signedIn("trial@demo.test");
    expect((await client.call(api.deleteUser, { body: { forgetMe: false } })).body).toEqual({
      success: true,
    });
    expect((await client.call(api.userContext)).body).toMatchObject({
      productCode: "wv_free",
      isTrial: false,
      isCancelled: true,
    });
    expect(await client.call(api.deleteUser, { body: { forgetMe: false } })).toMatchObject({
      status: 409,
      body: { error_code: "not_on_trial" },
    });
  });

  it("removes the essentials add-on, then refuses a second time", async () => {
    const client = await server.signedIn("annual@demo.test");
    // Issue 33, item 8: at the end of the period paid for, not now.
    const { orderEndDate } = (await client.call(api.products)).body as { orderEndDate: number };
    expect((await client.call(api.deleteEssentials)).body).toEqual({
      success: true,
      productCode: "wv_single_12m",
      endsAt: orderEndDate,
    });
    expect(await client.call(api.deleteEssentials)).toMatchObject({
      status: 409,
      body: { error_code: "no_essentials" },
    });
  });

  it("cancels a subscription at the end of its period", async () => {
    const client = await server.signedIn("teacher@demo-school.edu");
    const answer = await client.call(api.cancelSubscription);
    expect(answer.ok && answer.body).toMatchObject({ success: true, orderState: "cancelled" });
    expect(answer.ok && answer.body.orderEndDate).toBeGreaterThan(server.clock.now());
    expect(await client.call(api.cancelSubscription)).toMatchObject({
      status: 409,
      body: { error_code: "no_subscription" },
    });
  });

  it("deletes the account with forgetMe", async () => {
    const client = await newAccount("forget@example.com");
    expect((await client.call(api.deleteUser, { body: { forgetMe: true } })).body).toEqual({
      success: true,
    });
    expect((await client.call(api.userInfo)).status).toBe(401);
    expect(
      await server
        .client()
        .call(api.signIn, { body: { email: "forget@example.com", password: "secret-1" } }),
    ).toMatchObject({
      status: 401,
    });
  });
});

describe("analytics and error reports", () => {
  it("records instrumentation, hubspot events and trackjs reports", async () => {
    const client = await server.signedIn("free@demo.test");
    expect(
      (
        await client.call(api.instrumentation, {
          body: { eventName: "add_to_cart", properties: { plan: "wv_single_12m" } },
        })
      ).body,
    ).toEqual({
      success: true,
    });
    expect(
      (
        await client.call(api.hubspotEvent, {
          params: { id: "pe123" },
          query: { requiredEvent: "true" },
        })
      ).body,
    ).toEqual({ success: true });
    expect(
      (
        await server
          .client()
          .call(api.trackJs, { body: { message: "checkout-prod: boom", url: "/cart" } })
      ).body,
    ).toEqual({ success: true });
    const rows = await eventKindsAndNames(server.running.deps.db);
    expect(rows).toEqual(
      expect.arrayContaining([
        { kind: "instrumentation", name: "add_to_cart" },
        { kind: "hubspot", name: "pe123" },
        { kind: "trackjs", name: "checkout-prod: boom" },
      ]),
    );
    // @ts-expect-error: no eventName, on purpose: the server must refuse it
    expect(await client.call(api.instrumentation, { body: { properties: {} } })).toMatchObject({
      status: 400,
    });
  });
});

describe("issue 18, item 14: disbanding with deleteMembers", () => {
  it("deletes only accounts the invitation created and that were never used elsewhere", async () => {
    const team = await startTestServer();
    try {
      const db = team.running.deps.db;
      const signUp = async (email: string) => {
        const client = team.client();
        const answer = await client.call(api.signUp, {
          body: { email, password: "secret-1", firstName: "Mo", lastName: "Member" },
        });
        if (!answer.ok) throw new Error(answer.body.message);
        return client;
      };
      // An account of the person's own, older than the invitation, that used a trial.
      const older = await signUp("older@example.com");
      const mails = (await (
        await fetch(`${team.running.url}/dev/mailbox?format=json&to=older@example.com`)
      ).json()) as { subject: string }[];
      const code = /(\d{6})/.exec(mails[0]?.subject ?? "")?.[1] ?? "";
      expect((await older.call(api.verifyEmailCode, { body: { code } })).ok).toBe(true);
      const trial = await older.call(api.activateFreeTrial, {
        body: { vertical: "unlimited" },
        idempotencyKey: `trial-${Date.now()}`,
      });
      expect(trial.ok).toBe(true);
      // An older account that never did anything is the person's own as well.
      const idle = await signUp("idle@example.com");
      team.clock.advance(60 * 60 * 1000);
      const owner = await team.signedIn("owner@demo.test");
      const made = await owner.fetch("/dev/invites", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      const { code: invite } = (await made.json()) as { code: string };
      // An account made for the invitation.
      const fresh = await signUp("fresh@example.com");
      for (const client of [older, idle, fresh]) {
        const joined = await client.call(api.acceptInvite, { params: { code: invite } });
        expect(joined.ok && joined.body.success).toBe(true);
      }
      const disband = await owner.call(api.disbandInstance, {
        body: { reason: "done", forgetMe: false, deleteOwner: false, deleteMembers: true },
      });
      expect(disband.ok).toBe(true);
      const emails = [
        "fresh@example.com",
        "idle@example.com",
        "member@demo.test",
        "older@example.com",
      ];
      const left = (await Promise.all(emails.map((email) => Users.byEmail(db, email)))).flatMap(
        (user) => (user ? [{ email: user.email, instance_id: user.instanceId }] : []),
      );
      expect(left).toEqual([
        { email: "idle@example.com", instance_id: null },
        { email: "older@example.com", instance_id: null },
      ]);
    } finally {
      await team.close();
    }
  });
});

describe("issue 18, item 15: team names", () => {
  const MARKUP = "<img src=x onerror=alert(1)>";

  async function businessTrial(email: string, body: { vertical: string; instanceName?: string }) {
    const client = await newAccount(email);
    await verifyAddress(client, email);
    const trial = await client.call(api.activateFreeTrial, {
      body,
      idempotencyKey: `trial-${email}-${Date.now()}`,
    });
    if (!trial.ok) throw new Error(trial.body.message);
    return { client, trial: trial.body };
  }

  it("stores no markup from the trial's instanceName, and the licence and invitation calls answer it safe", async () => {
    const { client, trial } = await businessTrial("markup-trial@example.com", {
      vertical: "business",
      instanceName: `Acme ${MARKUP}`,
    });
    expect(trial.instanceName).not.toMatch(/[<>]/);
    const license = await client.call(api.enterpriseLicense);
    expect(license.ok && license.body.instanceName).toBe(trial.instanceName);
    const made = await client.fetch("/dev/invites", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const { code } = (await made.json()) as { code: string };
    const info = await server.client().call(api.inviteInfo, { params: { code } });
    expect(info.ok && info.body.instanceName).toBe(trial.instanceName);
  });

  it("stores no markup from desiredInstanceName either", async () => {
    const client = await newAccount("markup-desired@example.com");
    await verifyAddress(client, "markup-desired@example.com");
    await client.call(api.setAttribute, {
      query: { key: "desiredInstanceName", value: MARKUP },
    });
    const trial = await client.call(api.activateFreeTrial, {
      body: { vertical: "business" },
      idempotencyKey: `trial-desired-${Date.now()}`,
    });
    expect(trial.ok && trial.body.instanceName).not.toMatch(/[<>]/);
    const info = await client.call(api.userInfo);
    expect(info.ok && info.body.properties.desiredInstanceName).not.toMatch(/[<>]/);
  });

  it("answers a name stored with markup before the rule safe", async () => {
    const { client, trial } = await businessTrial("markup-old@example.com", {
      vertical: "business",
      instanceName: "Old team",
    });
    const db = server.running.deps.db;
    const instance = await Instances.byName(db, trial.instanceName ?? "");
    if (!instance) throw new Error("the trial made no workspace");
    await Instances.update(db, instance.id, { name: `Old ${MARKUP}` });
    const license = await client.call(api.enterpriseLicense);
    expect(license.ok && license.body.instanceName).not.toMatch(/[<>]/);
  });
});
