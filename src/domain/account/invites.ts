// Invitations to a team workspace (spec 2.2, 6 and 7): why the server refused one, in words a
// person can act on, and whether accepting will cancel the person's own subscription, so that the
// invitation page says so before they confirm. The server's join rules are teams.ts (joinRefusal)
// and src/server/services/teams.ts; its answer's failureReason is one of INVITE_FAILURE_REASONS.
import type { JoinRefusal } from "./teams.ts";

/** Every failureReason POST /api/5/invites/{code} answers (src/server/handlers/engagement.ts). */
export const INVITE_FAILURE_REASONS = [
  "already_member",
  "member_of_another_workspace",
  "active_subscription",
  "no_seats",
  "used",
  "wrong_email",
  "email_not_verified",
  "managed_account",
] as const satisfies readonly (JoinRefusal | string)[];
export type InviteFailureReason = (typeof INVITE_FAILURE_REASONS)[number];

function isInviteFailureReason(reason: string): reason is InviteFailureReason {
  return (INVITE_FAILURE_REASONS as readonly string[]).includes(reason);
}

/** What a refusal means and what to do next; `team` is the workspace's name. */
export function inviteFailureText(reason: string, team: string): string {
  if (!isInviteFailureReason(reason)) {
    return `We could not add you to ${team}. Try again later, or ask the person who invited you for a new invitation.`;
  }
  switch (reason) {
    case "already_member":
      return `You are already a member of ${team}. There is nothing more to do.`;
    case "member_of_another_workspace":
      return `Your account already belongs to another team workspace. Leave that team first (on your account page), then open this invitation again.`;
    case "active_subscription":
      return `You pay for a subscription of your own. Joining ${team} cancels it; confirm below to cancel it and join.`;
    case "no_seats":
      return `${team} has no free seat left. Ask the team's owner to add seats, then open this invitation again.`;
    case "used":
      return "This invitation has already been used. Ask the team's owner for a new invitation.";
    case "wrong_email":
      return "This invitation was sent to another e-mail address. Sign in with the address it was sent to, or ask for an invitation to yours.";
    case "email_not_verified":
      return "This invitation was sent to your e-mail address, which is not verified yet. Enter the code we sent you to verify it, then open this invitation again.";
    case "managed_account":
      return "Your account is managed by your organisation, so it cannot join another team here. Contact your administrator.";
  }
}

export type InviteAccountFacts = {
  productCode: string;
  orderState: string;
  isTrial: boolean;
  /** Billed through a mobile app store: not cancelled from here. */
  mobileStore: boolean;
  /** Already in a team workspace (member or owner). */
  inTeam: boolean;
};

/**
 * Whether accepting will cancel the person's own subscription: a renewing paid plan of their own
 * (the server's rule: automatic and paid). The server has the last word; when it answers
 * active_subscription anyway, the page asks again with this notice.
 */
export function inviteCancelsSubscription(a: InviteAccountFacts): boolean {
  return (
    a.orderState === "automatic" &&
    a.productCode !== "wv_free" &&
    !a.isTrial &&
    !a.mobileStore &&
    !a.inTeam
  );
}

/** The notice shown before the person confirms, when joining cancels their subscription. */
export function cancellationNotice(team: string, end: string | null): string {
  return `Joining ${team} cancels your own subscription: it will not renew${end ? ` on ${end}` : ""} and you are not charged for it again. From now on ${team}'s plan covers you.`;
}
