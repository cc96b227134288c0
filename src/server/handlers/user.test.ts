import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { DAY_MS } from "../clock.ts";
import { Users } from "../db/users.ts";
import { startTestServer, type TestServer } from "../testing/harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe("user info and context for each demo role", () => {
  it("answers 401 with success false for anonymous visitors", async () => {
    const info = await server.client().fetch(api.userInfo.path);
    expect(info.status).toBe(401);
    expect(await info.json()).toEqual({
      success: false,
      message: "You are not signed in. Sign in and try again.",
      error_code: "not_authenticated",
    });
    expect((await server.client().call(api.userContext)).status).toBe(401);
  });

  it("describes a trial", async () => {
    const client = await server.signedIn("trial@demo.test");
    const context = await client.call(api.userContext);
    expect(context.ok && context.body).toMatchObject({
      productCode: "wv_unlimited_trial",
      orderState: "trial",
      isTrial: true,
      isExpiredTrial: false,
      remainingTrialDays: 10,
      shouldViewUpgrade: true,
      isManagedAccount: false,
    });
    server.clock.advance(11 * DAY_MS);
    const later = await client.call(api.userContext);
    expect(later.ok && later.body).toMatchObject({
      isExpiredTrial: true,
      remainingTrialDays: -1,
      isCancelled: true,
    });
    server.clock.advance(-11 * DAY_MS);
  });

  it("describes an expired trial, a paying account and managed accounts", async () => {
    const expired = await (await server.signedIn("expired@demo.test")).call(api.userContext);
    expect(expired.ok && expired.body).toMatchObject({
      isExpiredTrial: true,
      isExpiredAccount: true,
    });
    const monthly = await (await server.signedIn("monthly@demo.test")).call(api.userContext);
    expect(monthly.ok && monthly.body).toMatchObject({
      orderState: "automatic",
      isTrial: false,
      userHasPaymentMethodSet: true,
      paymentMethod: "cc",
      shouldViewUpgrade: false,
    });
    const member = await (await server.signedIn("member@demo.test")).call(api.userContext);
    expect(member.ok && member.body).toMatchObject({
      isManagedAccount: true,
      isUserEnterpriseMember: true,
      hasInstanceProduct: true,
    });
    const po = await (await server.signedIn("po@demo.test")).call(api.userContext);
    expect(po.ok && po.body).toMatchObject({ isPurchaseOrder: true, isManagedAccount: true });
    const mobile = await (await server.signedIn("mobile@demo.test")).call(api.userContext);
    expect(mobile.ok && mobile.body).toMatchObject({
      upgradesDisabled: true,
      itunesSubscription: true,
    });
  });

  it("gives the user payload of spec 3.2", async () => {
    const owner = await (await server.signedIn("owner@demo.test")).call(api.userInfo);
    expect(owner.ok && owner.body).toMatchObject({
      enterpriseMember: true,
      enterpriseAccountOwner: true,
      enterpriseMemberInstance: "demo-team",
      enterpriseRole: "admin",
      usedSeats: 2,
      domainStatus: null,
      eu: false,
    });
    const blocked = await (await server.signedIn("blocked@mailinator.com")).call(api.userInfo);
    expect(blocked.ok && blocked.body.domainStatus).toBe("blocked");
  });
});

describe("session status and location", () => {
  it("sets eu from the billing country", async () => {
    const anonymous = await server
      .client()
      .call(api.sessionStatus, { query: { p: "buy", initialReferrer: "x" } });
    expect(anonymous.body).toMatchObject({ isAuth: false, eu: false, countryCode: "US" });
    const client = await server.signedIn("free@demo.test");
    const address = await client.call(api.address, {
      body: { country: "de", postalCode: "10115" },
    });
    expect(address.body).toEqual({ success: true, countryCode: "DE", stateCode: null });
    expect((await client.call(api.sessionStatus)).body).toMatchObject({
      isAuth: true,
      eu: true,
      countryCode: "DE",
    });
    expect((await client.call(api.location)).body).toEqual({
      countryCode: "DE",
      stateCode: null,
      stateName: null,
    });
    await client.call(api.address, { body: { country: "US", state: "ca" } });
    expect((await client.call(api.location)).body).toEqual({
      countryCode: "US",
      stateCode: "CA",
      stateName: "California",
    });
    expect((await client.call(api.address, { body: { country: "US", state: "ZZ" } })).status).toBe(
      400,
    );
  });
});

describe("attributes, licence, instance info", () => {
  it("sets only the attributes the app may set", async () => {
    const client = await server.signedIn("free@demo.test");
    expect(
      (await client.call(api.setAttribute, { query: { key: "selectedTier", value: "business" } }))
        .body,
    ).toEqual({ success: true });
    const info = await client.call(api.userInfo);
    expect(info.ok && info.body.properties.selectedTier).toBe("business");
    expect(
      await client.call(api.setAttribute, { query: { key: "stripeId", value: "cus_evil" } }),
    ).toMatchObject({
      status: 400,
      body: { error_code: "unknown_attribute" },
    });
  });

  it("keeps every attribute when several are set at once", async () => {
    const client = await server.signedIn("annual@demo.test");
    const keys = ["selectedP", "selectedTier", "purpose", "segmentationInfo", "useNewPlans"];
    await Promise.all(
      keys.map((key) => client.call(api.setAttribute, { query: { key, value: `v-${key}` } })),
    );
    const info = await client.call(api.userInfo);
    for (const key of keys) {
      expect(info.ok && info.body.properties[key as "purpose"], key).toBe(`v-${key}`);
    }
  });

  it("gives the licence to enterprise owners and members only", async () => {
    const owner = await (await server.signedIn("owner@demo.test")).call(api.enterpriseLicense);
    expect(owner.ok && owner.body).toMatchObject({
      hasLicense: true,
      instanceName: "demo-team",
      maxSeats: 5,
      usedSeats: 2,
      isEnterpriseAdmin: true,
    });
    const member = await (await server.signedIn("member@demo.test")).call(api.enterpriseLicense);
    expect(member.ok && member.body).toMatchObject({ hasLicense: true, isEnterpriseAdmin: false });
    expect(
      (await (await server.signedIn("free@demo.test")).call(api.enterpriseLicense)).status,
    ).toBe(403);
  });

  it("tells whether a workspace name is free", async () => {
    const client = await server.signedIn("free@demo.test");
    const taken = await client.call(api.instanceInfo, {
      query: { method: "getInstanceInfo", instanceName: "Demo-Team" },
    });
    expect(taken.body).toMatchObject({ exists: true, available: false });
    const free = await client.call(api.instanceInfo, {
      query: { method: "getInstanceInfo", instanceName: "brand-new" },
    });
    expect(free.body).toMatchObject({ exists: false, available: true });
    const bad = await client.call(api.instanceInfo, { query: { method: "dropTables" } });
    expect(bad).toMatchObject({ status: 400, body: { error_code: "unknown_method" } });
  });
});

describe("e-mail codes, activation, edit user, teacher check", () => {
  it("verifies the code once and then activates", async () => {
    const client = await server.signedIn("student-teacher@demo-school.edu");
    expect(await client.call(api.activateUser)).toMatchObject({
      status: 403,
      body: { error_code: "email_not_verified" },
    });
    expect((await client.call(api.validateTeacher)).body).toEqual({ success: false });
    expect((await client.call(api.generateEmailCode)).body).toEqual({ success: true });
    const mails = (await (
      await fetch(
        `${server.running.url}/dev/mailbox?format=json&to=student-teacher@demo-school.edu`,
      )
    ).json()) as {
      subject: string;
    }[];
    const code = /(\d{6})/.exec(mails[0]?.subject ?? "")?.[1] ?? "";
    const wrong = code === "000000" ? "111111" : "000000";
    expect(await client.call(api.verifyEmailCode, { body: { code: wrong } })).toMatchObject({
      status: 400,
      body: { error_code: "invalid_code" },
    });
    expect((await client.call(api.verifyEmailCode, { body: { code } })).body).toEqual({
      success: true,
    });
    expect((await client.call(api.verifyEmailCode, { body: { code } })).status).toBe(400);
    expect((await client.call(api.activateUser)).body).toEqual({ success: true });
    expect((await client.call(api.validateTeacher)).body).toEqual({ success: true });
    const info = await client.call(api.userInfo);
    expect(info.ok && info.body).toMatchObject({ emailVerified: true, activationRequired: false });
  });

  it("edits the user and refuses taken addresses", async () => {
    const client = await server.signedIn("teacher@demo-school.edu");
    const body = {
      email: "teacher@demo-school.edu",
      firstName: "Theodora",
      lastName: "Teacher",
      username: "theo",
    };
    expect((await client.call(api.editUser, { body })).body).toEqual({ success: true });
    expect(
      await client.call(api.editUser, {
        body: { ...body, email: "free@demo.test", currentPassword: "demo-password" },
      }),
    ).toMatchObject({ status: 409, body: { error_code: "email_taken" } });
    const info = await client.call(api.userInfo);
    expect(info.ok && info.body).toMatchObject({ firstName: "Theodora", username: "theo" });
  });

  it("keeps the address and username of a single sign-on account, and lets the name change", async () => {
    const client = await server.signedIn("mobile@demo.test");
    const { db } = server.running.deps;
    const user = await Users.byEmail(db, "mobile@demo.test");
    await db.transaction((tx) => Users.update(tx, user?.id ?? -1, { ssoType: "saml" }));
    const info = await client.call(api.userInfo);
    expect(info.ok && info.body).toMatchObject({ canEditCredentials: false });
    const body = {
      email: "mobile@demo.test",
      firstName: "Mila",
      lastName: "Mobile",
      username: "mobile@demo.test",
    };
    for (const change of [{ email: "milo@example.com" }, { username: "milo" }]) {
      expect(await client.call(api.editUser, { body: { ...body, ...change } })).toMatchObject({
        status: 403,
        body: { error_code: "credentials_managed" },
      });
    }
    expect((await client.call(api.editUser, { body })).body).toEqual({ success: true });
    const after = await client.call(api.userInfo);
    expect(after.ok && after.body).toMatchObject({
      firstName: "Mila",
      email: "mobile@demo.test",
      username: "mobile@demo.test",
    });
  });
});
