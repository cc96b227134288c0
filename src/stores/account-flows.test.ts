// The invitation, edit-details and delete-members stores (issue 10) against the in-process server,
// and against a scripted one for answers our server never gives (success "true" or false).
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiClient } from "../client/client.ts";
import { scriptedFetch } from "../client/testing/scripted-fetch.ts";
import { browserFetch } from "../server/testing/browser-fetch.ts";
import { startTestServer, type TestServer } from "../server/testing/harness.ts";
import { $actionError, confirmAction } from "./account-actions.ts";
import { inviteInfo } from "./account-operations.ts";
import { installApiClient } from "./api.ts";
import { $editDetails, isEditSuccess, resetEditDetails, saveDetails } from "./edit-details.ts";
import { $inviteCancellation, $inviteJoin, acceptInvite, showInvite } from "./invites.ts";
import { $user, ANONYMOUS, loadContext, loadUser } from "./user.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  $user.set({ ...ANONYMOUS });
  resetEditDetails();
});

async function signedIn(email: string): Promise<void> {
  const client = createApiClient({ fetch: browserFetch(server.running.url), version: "test" });
  installApiClient(client);
  const { api } = await import("../contract/index.ts");
  const answer = await client.call(api.signIn, { body: { email, password: "demo-password" } });
  if (!answer.ok) throw new Error(answer.error.message);
  await Promise.all([loadUser.run(), loadContext.run()]);
}

/** Waits until the invitation's details have loaded (or failed to). */
async function settled(): Promise<void> {
  await vi.waitFor(() => expect(inviteInfo.$state.get().status).not.toBe("started"), {
    timeout: 10_000,
    interval: 10,
  });
}

describe("accepting an invitation", () => {
  it("tells a subscriber first that joining cancels the subscription, then joins", async () => {
    await signedIn("monthly@demo.test");
    showInvite("demo-invite");
    await settled();
    expect($inviteCancellation.get()).toMatch(
      /^Joining demo-team cancels your own subscription: it will not renew on \w+ \d+, \d{4} and you are not charged for it again\./,
    );
    await acceptInvite("demo-invite");
    expect($inviteJoin.get()).toEqual({ phase: "joined", team: "demo-team" });
    expect($user.get()).toMatchObject({
      isUserEnterpriseMember: true,
      enterpriseMemberInstance: "demo-team",
    });
  });

  it("puts a refusal in words: a managed account may not join", async () => {
    await signedIn("po@demo.test");
    showInvite("demo-invite");
    await settled();
    expect($inviteCancellation.get()).toBeNull();
    await acceptInvite("demo-invite");
    expect($inviteJoin.get()).toEqual({
      phase: "refused",
      reason: "managed_account",
      text: "Your account is managed by your organisation, so it cannot join another team here. Contact your administrator.",
    });
  });

  it("asks again with the notice when the server says the subscription must go", async () => {
    const fetch = scriptedFetch({
      status: 200,
      body: { success: false, failureReason: "active_subscription", instanceName: "t1" },
    });
    installApiClient(createApiClient({ fetch, version: "test" }));
    $user.set({ ...ANONYMOUS, isAuth: true, productCode: "wv_free" });
    expect($inviteCancellation.get()).toBeNull();
    await acceptInvite("code-1");
    expect($inviteJoin.get()).toMatchObject({ phase: "refused", reason: "active_subscription" });
    expect($inviteCancellation.get()).toMatch(/cancels your own subscription/);
    expect(fetch.sent[0]?.url).toBe("/api/5/invites/code-1");
  });
});

describe("edit details", () => {
  it("counts only true or 'true' as success", () => {
    expect(isEditSuccess(true)).toBe(true);
    expect(isEditSuccess("true")).toBe(true);
    for (const other of [false, "false", "TRUE", 1, null, undefined]) {
      expect(isEditSuccess(other)).toBe(false);
    }
  });

  it("fails on success false, keeping the account as it was", async () => {
    installApiClient(
      createApiClient({
        fetch: scriptedFetch({ status: 200, body: { success: false } }),
        version: "t",
      }),
    );
    $user.set({ ...ANONYMOUS, isAuth: true, firstName: "Pat" });
    await saveDetails({
      email: "pat@example.com",
      firstName: "Kim",
      lastName: "",
      username: "pat",
    });
    expect($editDetails.get()).toEqual({ phase: "failed", error: null });
    expect($user.get().firstName).toBe("Pat");
  });

  it("saves on the server and shows the new details", async () => {
    await signedIn("free@demo.test");
    await saveDetails({
      email: "free@demo.test",
      firstName: "Fran",
      lastName: "Freeman",
      username: "fran-free",
    });
    expect($editDetails.get()).toEqual({ phase: "saved", pendingEmail: null });
    expect($user.get()).toMatchObject({
      firstName: "Fran",
      lastName: "Freeman",
      userName: "fran-free",
    });
  });

  it("sends the current password with a new address, which waits for its code", async () => {
    await signedIn("expired@demo.test");
    const details = {
      email: "expired-moved@example.com",
      firstName: "Ed",
      lastName: "Expired",
      username: "expired@demo.test",
    };
    await saveDetails(details);
    const refused = $editDetails.get();
    expect(refused.phase === "failed" && refused.error?.code).toBe("current_password_required");
    await saveDetails({ ...details, currentPassword: "demo-password" });
    expect($editDetails.get()).toEqual({
      phase: "saved",
      pendingEmail: "expired-moved@example.com",
    });
    expect($user.get().userEmail).toBe("expired@demo.test");
  });

  it("keeps the server's refusal: an address already taken", async () => {
    await signedIn("annual@demo.test");
    await saveDetails({
      email: "monthly@demo.test",
      firstName: "Ann",
      lastName: "Annual",
      username: "annual@demo.test",
      currentPassword: "demo-password",
    });
    const state = $editDetails.get();
    expect(state.phase === "failed" && state.error?.code).toBe("email_taken");
  });
});

describe("delete members", () => {
  it("fails with the spec's message unless success is true or 'true'", async () => {
    for (const success of [false, "false"]) {
      installApiClient(
        createApiClient({
          fetch: scriptedFetch({ status: 200, body: { success, productCode: "wv_free" } }),
          version: "t",
        }),
      );
      await confirmAction("deleteMembers");
      expect($actionError.get()?.error.message).toBe("Fail to get Delete Members!");
    }
  });
});
