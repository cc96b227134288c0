// What each cancellation of issue 10 does and from when, in words, before the person confirms and
// after (UX.md "Cancelling is as easy as buying"). Pure: the account's facts come in; the server
// decides what really happens (src/server/handlers/subscription.ts, user.ts), and these texts say what
// it does: cancelling a subscription keeps the plan to the end of the paid period; converting to
// free, closing a team and cancelling a trial take effect at once; Essentials stays to the end of
// the period paid for, and the plan renews without it (issue 33, item 8).

import { formatDay } from "./format-day.ts";

export type AccountAction =
  | "cancelSubscription"
  | "convertToFree"
  | "leaveInstance"
  | "deleteMembers"
  | "cancelEssentials"
  | "cancelTrial"
  | "deleteAccount";

export type AccountFacts = {
  productCode: string;
  orderState: string;
  /** End of the paid period (or the trial), a millisecond timestamp. */
  orderEndDate: number | null;
  isTrial: boolean;
  remainingTrialDays: number | null;
  isMember: boolean;
  isOwner: boolean;
  isManaged: boolean;
  mobileStore: boolean;
  hasEssentials: boolean;
  /** Essentials was cancelled and ends on this day (the end of the period paid for); else null. */
  essentialsEndsAt?: number | null;
  /** A one-time product (Flex): paid once, nothing renews, so there is nothing to cancel. */
  oneTime?: boolean;
  instanceId: number | null;
  instanceName: string | null;
};

export type Notice = {
  /** The button that opens the confirmation. */
  open: string;
  /** What will happen and from when. */
  what: string;
  confirm: string;
  keep: string;
  /** Said once it is done. */
  done: string;
};

// In a module of its own, so screens that only say a day do not load these notices.
export { formatDay };

/** The actions this account may take (the server refuses the others anyway). */
export function availableActions(a: AccountFacts): AccountAction[] {
  const actions: AccountAction[] = [];
  const selfServe = !a.isManaged && !a.isMember && !a.mobileStore;
  if (a.isTrial) actions.push("cancelTrial");
  if (selfServe && a.hasEssentials && (a.essentialsEndsAt ?? null) === null)
    actions.push("cancelEssentials");
  if (selfServe && a.orderState === "automatic" && !a.isTrial && !a.oneTime)
    actions.push("cancelSubscription");
  if (selfServe && a.productCode !== "wv_free" && !a.isTrial) actions.push("convertToFree");
  if (a.isMember && !a.isOwner && a.instanceId !== null) actions.push("leaveInstance");
  if (a.isOwner && selfServe && a.instanceId !== null) actions.push("deleteMembers");
  return actions;
}

/**
 * Whether the account may be deleted from the account page (issue 34, item 3): not an account its
 * organisation manages, and not one an app store bills (the store's subscription is the store's to
 * end, so "billing stops" would not be true). Apart from `availableActions`, whose list is the
 * cancellations of issue 10; the account page adds it last, in what cannot be undone.
 */
export function canDeleteAccount(a: AccountFacts): boolean {
  return !(a.isManaged || a.mobileStore);
}

function capitalised(text: string): string {
  return `${text[0]?.toUpperCase() ?? ""}${text.slice(1)}`;
}

export function notice(action: AccountAction, a: AccountFacts): Notice {
  const end = formatDay(a.orderEndDate);
  const team = a.instanceName ? `the team workspace ${a.instanceName}` : "your team workspace";
  switch (action) {
    case "cancelSubscription":
      return {
        open: "Cancel subscription",
        what: end
          ? `Your subscription will not renew. You keep your plan until ${end}; after that your account moves to the free plan. Your projects stay.`
          : "Your subscription will not renew. You keep your plan to the end of the paid period; after that your account moves to the free plan. Your projects stay.",
        confirm: "Cancel my subscription",
        keep: "Keep my subscription",
        done: end
          ? `Your subscription is cancelled. You keep your plan until ${end}.`
          : "Your subscription is cancelled. You keep your plan to the end of the paid period.",
      };
    case "convertToFree":
      // A team's owner closes the team (disband) on the way to the free plan: say so in the
      // button too, not only in the notice.
      if (a.isOwner && a.instanceId !== null) {
        return {
          open: "Close the team and switch to the free plan",
          what: `${capitalised(team)} closes now, not on ${end ?? "the end of the paid period"}: its members are detached from it and keep their own accounts, on the free plan unless they buy one. Your account moves to the free plan now; paid features stop today and nothing more is charged. Your projects stay.`,
          confirm: "Close the team now",
          keep: "Keep the team",
          done: "The team is closed and your account is on the free plan. Its members keep their own accounts.",
        };
      }
      return {
        open: "Switch to the free plan",
        what: `Your account moves to the free plan now${end ? `, not on ${end} when the paid period ends` : ""}: paid features stop today and nothing more is charged. Your projects stay.`,
        confirm: "Switch to the free plan now",
        keep: "Keep my plan",
        done: "Your account is on the free plan.",
      };
    case "leaveInstance":
      return {
        open: "Leave the team",
        what: `You leave ${team} now and lose access to its plan and shared projects. Your own account stays, on the free plan unless you buy one.`,
        confirm: "Leave the team now",
        keep: "Stay in the team",
        done: "You left the team.",
      };
    case "deleteMembers":
      return {
        open: "Close the team and delete members",
        what: `${capitalised(team)} closes now. Members who never paid lose their accounts and projects; members who paid for their own account keep it, detached from the team. Your account moves to the free plan now${end ? `, not on ${end}` : ""}.`,
        confirm: "Close the team and delete members",
        keep: "Keep the team",
        done: "The team is closed and its members are removed.",
      };
    case "cancelEssentials":
      return {
        open: "Cancel Essentials",
        what: end
          ? `You keep Essentials until ${end}, the end of the period you paid for. Your plan then renews without Essentials, at the lower price.`
          : "You keep Essentials to the end of the period you paid for. Your plan then renews without Essentials, at the lower price.",
        confirm: "Cancel my Essentials",
        keep: "Keep Essentials",
        done: end
          ? `Essentials is cancelled. You keep it until ${end}; your plan then renews without it.`
          : "Essentials is cancelled. You keep it to the end of the paid period; your plan then renews without it.",
      };
    case "cancelTrial": {
      const days = a.remainingTrialDays ?? 0;
      return {
        open: "Cancel my trial",
        what: `Your trial ends now${days > 0 ? `, ${days} ${days === 1 ? "day" : "days"} early` : ""}, and your account moves to the free plan. Nothing is charged and your projects stay.`,
        confirm: "Cancel my trial now",
        keep: "Keep my trial",
        done: "Your trial is cancelled. Your account is on the free plan.",
      };
    }
    case "deleteAccount": {
      // The server stops billing at every provider first (services/stop-billing.ts); if one
      // cannot be reached it refuses (billing_not_stopped) and nothing changes.
      const paying = a.orderState === "automatic" && !a.isTrial && end !== null;
      const ownTeam =
        a.isOwner && a.instanceId !== null
          ? ` ${capitalised(team)} closes now: its members are detached from it and keep their own accounts.`
          : "";
      return {
        open: "Delete my account",
        what: `First your billing stops at every payment provider: nothing more is charged from today${paying ? `, and your plan ends now, not on ${end}` : ""}. Then your account, its projects and its details are deleted now and you are signed out.${ownTeam} This cannot be undone.`,
        confirm: "Delete my account now",
        keep: "Keep my account",
        done: "Your account is deleted and you are signed out. Your billing has stopped: nothing more will be charged.",
      };
    }
  }
}
