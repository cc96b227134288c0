// Team workspace membership rules (issue 7, items 3 and 4). Both ways into a team, its coupon and
// an invitation, follow joinRefusal; disbanding follows memberFate. The server applies them inside
// one transaction per join, so concurrent joins cannot exceed the team's seats.

export type JoinRefusal =
  | "already_member"
  | "member_of_another_workspace"
  | "active_subscription"
  | "no_seats";

export type JoinInput = {
  /** The joiner is in this workspace already. */
  memberOfThis: boolean;
  /** The joiner belongs to (or owns) another workspace. */
  memberOfAnother: boolean;
  /** The joiner pays for a subscription of their own that is still renewing. */
  paying: boolean;
  /** The joiner agreed to cancel that subscription (after being told). */
  cancelSubscription: boolean;
  /** Approved members of the team now, its owner included. */
  usedSeats: number;
  maxSeats: number;
};

/** Why the joiner may not join, or null when they may. */
export function joinRefusal(input: JoinInput): JoinRefusal | null {
  if (input.memberOfThis) return "already_member";
  if (input.memberOfAnother) return "member_of_another_workspace";
  // A paying subscriber would pay twice: they join only by cancelling their own subscription.
  if (input.paying && !input.cancelSubscription) return "active_subscription";
  if (input.usedSeats >= input.maxSeats) return "no_seats";
  return null;
}

/**
 * What disbanding a team does to a member. `deleteMembers` removes only the accounts the team
 * gave out: created by its invitation and never used elsewhere (no order of their own, no trial,
 * nothing paid). Any other member keeps their account, detached from the team, whatever the owner
 * asks (issue 18, item 14).
 */
export function memberFate(input: {
  deleteMembers: boolean;
  /** The account was created by this team's invitation (not an account the person had). */
  createdByInvitation: boolean;
  /** The account has an order, a trial or a payment of its own. */
  usedElsewhere: boolean;
}): "delete" | "detach" {
  return input.deleteMembers && input.createdByInvitation && !input.usedElsewhere
    ? "delete"
    : "detach";
}
