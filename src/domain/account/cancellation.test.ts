import { describe, expect, it } from "vitest";
import { type AccountFacts, availableActions, canDeleteAccount, notice } from "./cancellation.ts";

function facts(overrides: Partial<AccountFacts> = {}): AccountFacts {
  return {
    productCode: "wv_unloct17_1m",
    orderState: "automatic",
    orderEndDate: Date.UTC(2026, 2, 3),
    isTrial: false,
    remainingTrialDays: null,
    isMember: false,
    isOwner: false,
    isManaged: false,
    mobileStore: false,
    hasEssentials: false,
    instanceId: null,
    instanceName: null,
    ...overrides,
  };
}

describe("available cancellations", () => {
  it("follows the account", () => {
    expect(availableActions(facts())).toEqual(["cancelSubscription", "convertToFree"]);
    expect(availableActions(facts({ productCode: "wv_free", orderState: "unknown" }))).toEqual([]);
    expect(
      availableActions(facts({ isTrial: true, orderState: "trial", remainingTrialDays: 3 })),
    ).toEqual(["cancelTrial"]);
    expect(availableActions(facts({ isMember: true, instanceId: 7 }))).toEqual(["leaveInstance"]);
    expect(availableActions(facts({ isOwner: true, instanceId: 7 }))).toEqual([
      "cancelSubscription",
      "convertToFree",
      "deleteMembers",
    ]);
    expect(availableActions(facts({ isManaged: true }))).toEqual([]);
    expect(availableActions(facts({ mobileStore: true }))).toEqual([]);
  });
});

describe("notices", () => {
  it("say what happens and from when", () => {
    expect(notice("cancelSubscription", facts()).what).toMatchInlineSnapshot(
      `"Your subscription will not renew. You keep your plan until March 3, 2026; after that your account moves to the free plan. Your projects stay."`,
    );
    expect(notice("convertToFree", facts()).what).toMatchInlineSnapshot(
      `"Your account moves to the free plan now, not on March 3, 2026 when the paid period ends: paid features stop today and nothing more is charged. Your projects stay."`,
    );
    expect(notice("cancelTrial", facts({ remainingTrialDays: 1 })).what).toContain("1 day early");
    expect(notice("deleteMembers", facts({ instanceName: "demo-team" })).what).toMatch(
      /^The team workspace demo-team closes now\./,
    );
  });

  it("tell a team's owner that switching to free closes the team, in the button too", () => {
    const owner = notice(
      "convertToFree",
      facts({ isOwner: true, instanceId: 7, instanceName: "t" }),
    );
    expect(owner.open).toBe("Close the team and switch to the free plan");
    expect(owner.what).toMatchInlineSnapshot(
      `"The team workspace t closes now, not on March 3, 2026: its members are detached from it and keep their own accounts, on the free plan unless they buy one. Your account moves to the free plan now; paid features stop today and nothing more is charged. Your projects stay."`,
    );
  });
});

describe("one-time products and Essentials (issue 33, items 7 and 8)", () => {
  it("offers no subscription to cancel for Flex, which is paid once", () => {
    expect(availableActions(facts({ productCode: "wv_flex2", oneTime: true }))).toEqual([
      "convertToFree",
    ]);
  });

  it("keeps Essentials to the end of the paid period, and says until when", () => {
    const withEssentials = facts({ productCode: "wv_single_plus_1m", hasEssentials: true });
    expect(availableActions(withEssentials)).toContain("cancelEssentials");
    expect(notice("cancelEssentials", withEssentials).what).toMatchInlineSnapshot(
      `"You keep Essentials until March 3, 2026, the end of the period you paid for. Your plan then renews without Essentials, at the lower price."`,
    );
    expect(notice("cancelEssentials", withEssentials).done).toMatchInlineSnapshot(
      `"Essentials is cancelled. You keep it until March 3, 2026; your plan then renews without it."`,
    );
    // Once cancelled it is not offered again while it runs out.
    expect(
      availableActions({ ...withEssentials, essentialsEndsAt: Date.UTC(2026, 2, 3) }),
    ).not.toContain("cancelEssentials");
  });
});

describe("deleting the account (issue 34, item 3)", () => {
  it("is offered unless the organisation manages the account or an app store bills it", () => {
    expect(canDeleteAccount(facts())).toBe(true);
    expect(canDeleteAccount(facts({ productCode: "wv_free", orderState: "unknown" }))).toBe(true);
    expect(canDeleteAccount(facts({ isMember: true, instanceId: 7 }))).toBe(true);
    expect(canDeleteAccount(facts({ isManaged: true }))).toBe(false);
    expect(canDeleteAccount(facts({ mobileStore: true }))).toBe(false);
  });

  it("says billing stops first, from when, and that it cannot be undone", () => {
    expect(notice("deleteAccount", facts()).what).toMatchInlineSnapshot(
      `"First your billing stops at every payment provider: nothing more is charged from today, and your plan ends now, not on March 3, 2026. Then your account, its projects and its details are deleted now and you are signed out. This cannot be undone."`,
    );
    expect(
      notice("deleteAccount", facts({ productCode: "wv_free", orderState: "unknown" })).what,
    ).toMatchInlineSnapshot(
      `"First your billing stops at every payment provider: nothing more is charged from today. Then your account, its projects and its details are deleted now and you are signed out. This cannot be undone."`,
    );
    expect(
      notice("deleteAccount", facts({ isOwner: true, instanceId: 7, instanceName: "Acme" })).what,
    ).toContain(
      "The team workspace Acme closes now: its members are detached from it and keep their own accounts.",
    );
    expect(notice("deleteAccount", facts()).done).toBe(
      "Your account is deleted and you are signed out. Your billing has stopped: nothing more will be charged.",
    );
  });
});
