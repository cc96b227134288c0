// The engagement handlers through the API: coupons, invitations and their refusals.

import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";

import {
  newAccount,
  server,
  startsEngagementServer,
  verifyAddress,
} from "../testing/engagement-flow.ts";

startsEngagementServer();

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
