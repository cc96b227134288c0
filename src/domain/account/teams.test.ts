import { describe, expect, it } from "vitest";
import { joinRefusal, memberFate } from "./teams.ts";

const open = {
  memberOfThis: false,
  memberOfAnother: false,
  paying: false,
  cancelSubscription: false,
  usedSeats: 1,
  maxSeats: 3,
};

describe("joinRefusal", () => {
  it("lets a free account into a team with a free seat", () => {
    expect(joinRefusal(open)).toBe(null);
  });

  it("counts the team's seats, not the joiner's", () => {
    expect(joinRefusal({ ...open, usedSeats: 2 })).toBe(null);
    expect(joinRefusal({ ...open, usedSeats: 3 })).toBe("no_seats");
    expect(joinRefusal({ ...open, usedSeats: 7 })).toBe("no_seats");
  });

  it("asks a paying subscriber to cancel first, on every path", () => {
    expect(joinRefusal({ ...open, paying: true })).toBe("active_subscription");
    expect(joinRefusal({ ...open, paying: true, cancelSubscription: true })).toBe(null);
  });

  it("refuses members of this or another workspace", () => {
    expect(joinRefusal({ ...open, memberOfThis: true })).toBe("already_member");
    expect(joinRefusal({ ...open, memberOfAnother: true })).toBe("member_of_another_workspace");
  });
});

describe("memberFate", () => {
  it.each([
    // deleteMembers, createdByInvitation, usedElsewhere → fate
    [true, true, false, "delete"],
    [true, true, true, "detach"],
    [true, false, false, "detach"],
    [true, false, true, "detach"],
    [false, true, false, "detach"],
    [false, false, false, "detach"],
  ] as const)(
    "deleteMembers %s, created by the invitation %s, used elsewhere %s: %s",
    (deleteMembers, createdByInvitation, usedElsewhere, fate) => {
      expect(memberFate({ deleteMembers, createdByInvitation, usedElsewhere })).toBe(fate);
    },
  );
});
