// Accepting an invitation (spec 2.2, 6, 7): the invitation's team (inviteInfo), then the join
// (useInviteCode), which cancels the person's own subscription only when they were told so and
// confirmed (cancelSubscription=true). The rules and the words are domain/account/invites.ts; the
// account shown is reloaded after a join, without a page load. Loaded with the invitation screen
// only (not part of the app's start-up).
import { atom, computed } from "nanostores";
import { formatDay } from "../domain/account/cancellation.ts";
import {
  cancellationNotice,
  inviteCancelsSubscription,
  inviteFailureText,
} from "../domain/account/invites.ts";
import { inviteInfo, useInviteCode } from "./account-operations.ts";
import { loadProducts } from "./products.ts";
import { $user, loadContext, loadUser } from "./user.ts";

export type InviteJoinState =
  | { phase: "idle" }
  | { phase: "joining" }
  | { phase: "refused"; reason: string; text: string }
  | { phase: "joined"; team: string };

export const $inviteJoin = atom<InviteJoinState>({ phase: "idle" });
/** The server said joining needs the person's subscription cancelled (it was not predicted). */
const $serverAskedToCancel = atom(false);

/** Whether this join cancels the person's subscription, and the notice that says so first. */
export const $inviteCancellation = computed(
  [$user, inviteInfo.$state, $serverAskedToCancel],
  (user, info, asked) => {
    const team = info.status === "success" ? info.value.instanceName : "the team";
    const cancels =
      asked ||
      inviteCancelsSubscription({
        productCode: user.productCode,
        orderState: user.orderState,
        isTrial: user.isTrial,
        mobileStore: user.itunesSubscription || user.androidSubscription,
        inTeam: user.instanceId !== null,
      });
    return cancels ? cancellationNotice(team, formatDay(user.orderEndDate)) : null;
  },
);

export function showInvite(code: string): void {
  $inviteJoin.set({ phase: "idle" });
  $serverAskedToCancel.set(false);
  void inviteInfo.run(code);
}

/** Joins the team; `cancelSubscription` only when the notice was on screen when they confirmed. */
export async function acceptInvite(code: string): Promise<void> {
  if ($inviteJoin.get().phase === "joining") return;
  const cancelSubscription = $inviteCancellation.get() !== null;
  $inviteJoin.set({ phase: "joining" });
  const result = await useInviteCode.run(code, cancelSubscription);
  const info = inviteInfo.$state.get();
  const fallbackTeam = info.status === "success" ? info.value.instanceName : "the team";
  if (!result.ok) {
    // A call that failed (network, account busy, gone): the screen shows the failure itself.
    $inviteJoin.set({ phase: "idle" });
    return;
  }
  const team = result.value.instanceName ?? fallbackTeam;
  if (result.value.success) {
    // The account changed (plan, team, perhaps the subscription): show it as it is now.
    await Promise.all([loadUser.run(), loadContext.run(), loadProducts.run()]);
    $inviteJoin.set({ phase: "joined", team });
    return;
  }
  const reason = result.value.failureReason ?? "unknown";
  if (reason === "active_subscription") $serverAskedToCancel.set(true);
  $inviteJoin.set({ phase: "refused", reason, text: inviteFailureText(reason, team) });
}
