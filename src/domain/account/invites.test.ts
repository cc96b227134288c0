import { describe, expect, it } from "vitest";
import {
  cancellationNotice,
  INVITE_FAILURE_REASONS,
  inviteCancelsSubscription,
  inviteFailureText,
} from "./invites.ts";
import { type JoinRefusal, joinRefusal } from "./teams.ts";

const subscriber = {
  productCode: "wv_unloct17_1m",
  orderState: "automatic",
  isTrial: false,
  mobileStore: false,
  inTeam: false,
};

describe("invitation refusals in words", () => {
  it("has its own sentence for every reason the server gives, naming the team", () => {
    const texts = INVITE_FAILURE_REASONS.map((reason) => inviteFailureText(reason, "demo-team"));
    expect(new Set(texts).size).toBe(INVITE_FAILURE_REASONS.length);
    expect(inviteFailureText("no_seats", "demo-team")).toBe(
      "demo-team has no free seat left. Ask the team's owner to add seats, then open this invitation again.",
    );
    expect(inviteFailureText("used", "demo-team")).toBe(
      "This invitation has already been used. Ask the team's owner for a new invitation.",
    );
    for (const text of texts) expect(text).not.toMatch(/_/);
  });

  it("covers every refusal of the join rule", () => {
    const refusals: JoinRefusal[] = [
      "already_member",
      "member_of_another_workspace",
      "active_subscription",
      "no_seats",
    ];
    for (const reason of refusals) expect(INVITE_FAILURE_REASONS).toContain(reason);
    const seen = joinRefusal({
      memberOfThis: false,
      memberOfAnother: false,
      paying: false,
      cancelSubscription: false,
      usedSeats: 3,
      maxSeats: 3,
    });
    expect(seen).toBe("no_seats");
  });

  it("says something a person understands for a reason it does not know", () => {
    expect(inviteFailureText("quota_exceeded_v2", "demo-team")).toBe(
      "We could not add you to demo-team. Try again later, or ask the person who invited you for a new invitation.",
    );
  });
});

describe("whether accepting cancels the person's subscription", () => {
  it("does for a renewing paid plan of their own", () => {
    expect(inviteCancelsSubscription(subscriber)).toBe(true);
  });

  it("does not for free, trial, cancelled, mobile-store or team accounts", () => {
    expect(inviteCancelsSubscription({ ...subscriber, productCode: "wv_free" })).toBe(false);
    expect(inviteCancelsSubscription({ ...subscriber, isTrial: true })).toBe(false);
    expect(inviteCancelsSubscription({ ...subscriber, orderState: "cancelled" })).toBe(false);
    expect(inviteCancelsSubscription({ ...subscriber, mobileStore: true })).toBe(false);
    expect(inviteCancelsSubscription({ ...subscriber, inTeam: true })).toBe(false);
  });

  it("says when it stops renewing", () => {
    expect(cancellationNotice("demo-team", "March 3, 2027")).toBe(
      "Joining demo-team cancels your own subscription: it will not renew on March 3, 2027 and you are not charged for it again. From now on demo-team's plan covers you.",
    );
  });
});
