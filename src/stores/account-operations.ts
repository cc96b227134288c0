// The account operations of spec section 4 that change the user's account: edit details, invite
// info and use invite code, leave instance, convert to free and delete members (instance
// disband), cancel trial, and user attributes. Only the account screens use them, so they load
// with those screens, not with the app's shell (the budget of scripts/cart-bundle.ts).
import { endpoints } from "../contract/endpoints.ts";
import { api } from "./api.ts";
import { operation } from "./operation.ts";
import { $user, type UserState } from "./user.ts";

function patch(fields: Partial<UserState>): void {
  $user.set({ ...$user.get(), ...fields });
}

export const editUser = operation(
  "editUser",
  (details: {
    email: string;
    firstName: string;
    lastName: string;
    username: string;
    currentPassword?: string;
  }) => api().call(endpoints.editUser, { body: details }),
);

export const inviteInfo = operation("inviteInfo", (code: string) =>
  api().call(endpoints.inviteInfo, { params: { code } }),
);

export const useInviteCode = operation(
  "useInviteCode",
  (code: string, cancelSubscription: boolean) =>
    api().call(endpoints.acceptInvite, {
      params: { code },
      query: cancelSubscription ? { cancelSubscription: "true" } : {},
      body: {},
    }),
);

export const leaveInstance = operation("leaveInstance", (instanceId: number) =>
  api().call(endpoints.leaveInstance, { params: { id: instanceId }, body: {} }),
);

/** Sets one user attribute; failures are only logged (spec 8). */
export async function setAttribute(key: string, value: string): Promise<void> {
  const result = await api().call(endpoints.setAttribute, { query: { key, value } });
  if (!result.ok) console.warn(`Could not save ${key}: ${result.error.message}`);
}

/** Convert to free: instance disband with forgetMe and deleteOwner false (spec 7). */
export const convertToFree = operation(
  "convertToFree",
  (reason: string) =>
    api().call(endpoints.disbandInstance, {
      body: { reason, forgetMe: false, deleteOwner: false, deleteMembers: false },
    }),
  {
    onSuccess(answer) {
      patch({ productCode: answer.productCode, orderState: "cancelled" });
    },
  },
);

/** Delete members: a disband that removes the members' accounts; success only on true (spec 5). */
export const deleteMembers = operation("deleteMembers", (reason: string) =>
  api().call(endpoints.disbandInstance, {
    body: { reason, forgetMe: false, deleteOwner: false, deleteMembers: true },
  }),
);

/** Cancel trial (DELETE /api/4/user/ {forgetMe}); success marks the account cancelled. */
export const cancelTrial = operation(
  "cancelTrial",
  (forgetMe: boolean) => api().call(endpoints.deleteUser, { body: { forgetMe } }),
  {
    onSuccess() {
      patch({ orderState: "cancelled", isTrial: false });
    },
  },
);

/**
 * Delete the account (DELETE /api/4/user/ with forgetMe): billing stops first, then it is gone and
 * the session ends. Not one of spec section 4's operations: the account page's confirmation holds
 * its state (stores/account-actions.ts).
 */
export function deleteAccount() {
  return api().call(endpoints.deleteUser, { body: { forgetMe: true } });
}
