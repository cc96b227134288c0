// The cancellations of issue 10 behind one confirmation each: the person opens one, reads what
// will happen and from when (domain/account/cancellation.ts), confirms, and the account state on
// screen is reloaded from the server (user, context, products) without a page load.
import { atom, computed } from "nanostores";
import type { ApiFailure, ApiResult } from "../client/client.ts";
import {
  type AccountAction,
  type AccountFacts,
  availableActions,
  notice,
} from "../domain/account/cancellation.ts";
import { MESSAGES } from "../domain/errors/messages.ts";
import {
  cancelTrial,
  convertToFree,
  deleteAccount,
  deleteMembers,
  leaveInstance,
} from "./account-operations.ts";
import { cancelEssentials, cancelSubscription } from "./payment.ts";
import { $productInfo, loadProducts } from "./products.ts";
import { $user, ANONYMOUS, loadContext, loadUser } from "./user.ts";

export type { AccountAction };

/** The confirmation that is open, if any. */
export const $confirming = atom<AccountAction | null>(null);
/** The last action done on this page (its notice's `done` text is shown). */
export const $lastDone = atom<AccountAction | null>(null);
/** A refusal of the last confirmed action. */
export const $actionError = atom<{ action: AccountAction; error: ApiFailure } | null>(null);
export const $actionBusy = atom<AccountAction | null>(null);
/**
 * What the last action did, in the words of the account as it was when the person confirmed (a
 * team's owner who closed the team is no longer its owner once the account is reloaded).
 */
export const $lastDoneText = atom<string | null>(null);

export const $accountFacts = computed(
  [$user, $productInfo],
  (u, info): AccountFacts => ({
    productCode: u.productCode,
    orderState: u.orderState,
    orderEndDate: u.orderEndDate,
    isTrial: u.isTrial,
    remainingTrialDays: u.remainingTrialDays,
    isMember: u.isUserEnterpriseMember && !u.isEnterpriseAdmin,
    isOwner: u.isEnterpriseAdmin,
    isManaged: u.isManagedAccount && !u.isUserEnterpriseMember,
    mobileStore: u.itunesSubscription || u.androidSubscription,
    hasEssentials: info?.essentialsInfo?.hasEssentials ?? false,
    essentialsEndsAt: info?.essentialsInfo?.endsAt ?? null,
    oneTime: (info?.validUntil ?? null) !== null,
    instanceId: u.instanceId,
    instanceName: u.enterpriseMemberInstance,
  }),
);

export const $availableActions = computed($accountFacts, availableActions);

export function askToConfirm(action: AccountAction): void {
  $actionError.set(null);
  $lastDone.set(null);
  $lastDoneText.set(null);
  $confirming.set(action);
}

export function dismissConfirmation(): void {
  $confirming.set(null);
}

/** Spec 5: delete members counts as success only when success is true or the string 'true'. */
async function runDeleteMembers(): Promise<ApiResult<unknown>> {
  const result = await deleteMembers.run("Closed from the account page");
  if (!result.ok || result.value.success === true || result.value.success === "true") {
    return result;
  }
  return {
    ok: false,
    error: { kind: "http", message: MESSAGES.failToGetDeleteMembers, status: result.status },
  };
}

async function run(action: AccountAction): Promise<ApiResult<unknown>> {
  switch (action) {
    case "cancelSubscription":
      return cancelSubscription.run();
    case "convertToFree":
      return convertToFree.run("Switched to free from the account page");
    case "leaveInstance": {
      const id = $user.get().instanceId;
      if (id === null) return noTeam();
      return leaveInstance.run(id);
    }
    case "deleteMembers":
      return runDeleteMembers();
    case "cancelEssentials":
      return cancelEssentials.run();
    case "cancelTrial":
      return cancelTrial.run(false);
    case "deleteAccount":
      return deleteAccount();
  }
}

function noTeam(): ApiResult<never> {
  return { ok: false, error: { kind: "http", message: "You are not in a team.", status: 404 } };
}

/** Confirms the open action: runs it, then reloads what the screen shows of the account. */
export async function confirmAction(action: AccountAction): Promise<void> {
  if ($actionBusy.get() !== null) return;
  $actionBusy.set(action);
  $actionError.set(null);
  const done = notice(action, $accountFacts.get()).done;
  const result = await run(action);
  if (result.ok) {
    // A deleted account's session ended with it: the page shows a signed-out person (the header
    // too), told what happened (AccountPanel's farewell); anything else is reloaded.
    if (action === "deleteAccount") $user.set({ ...ANONYMOUS });
    else await Promise.all([loadUser.run(), loadContext.run(), loadProducts.run()]);
    $lastDoneText.set(done);
    $lastDone.set(action);
    $confirming.set(null);
  } else {
    $actionError.set({ action, error: result.error });
  }
  $actionBusy.set(null);
}
