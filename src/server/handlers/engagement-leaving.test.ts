// The engagement handlers through the API: leaving and converting to free, cancellations, and
// disbanding a team with deleteMembers (issue 18 item 14).

import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { Users } from "../db/users.ts";
import { newAccount, server, startsEngagementServer } from "../testing/engagement-flow.ts";
import { startTestServer } from "../testing/harness.ts";

startsEngagementServer();

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
