// Edit details (PUT /api/4/user {email, firstName, lastName, username}): counts as success only
// when the answer's success is true or the string 'true' (spec 5); the account shown is then
// reloaded from the server. A new e-mail address needs the current password (sent only then) and
// becomes the account's only once the code sent to it is entered (issue 18, item 12). What the person typed stays on screen whatever happens. Loaded with
// the account panel only (not part of the app's start-up).
import { atom } from "nanostores";
import type { ApiFailure } from "../client/client.ts";
import { editUser } from "./account-operations.ts";
import { $user, loadUser } from "./user.ts";

export type Details = {
  email: string;
  firstName: string;
  lastName: string;
  username: string;
  /** Asked for only when the e-mail address changes. */
  currentPassword?: string;
};

export type EditDetailsState =
  | { phase: "idle" }
  | { phase: "saving" }
  /** `pendingEmail`: the new address waiting for its code (the account keeps the old one). */
  | { phase: "saved"; pendingEmail: string | null }
  | { phase: "failed"; error: ApiFailure | null };

export const $editDetails = atom<EditDetailsState>({ phase: "idle" });

/** Spec 5: true or the string 'true'; anything else (false, "false", missing) is a failure. */
export function isEditSuccess(success: unknown): boolean {
  return success === true || success === "true";
}

export function resetEditDetails(): void {
  $editDetails.set({ phase: "idle" });
}

export async function saveDetails(details: Details): Promise<void> {
  if ($editDetails.get().phase === "saving") return;
  $editDetails.set({ phase: "saving" });
  const before = $user.get().userEmail.toLowerCase();
  const email = details.email.trim();
  const body = {
    email,
    firstName: details.firstName.trim(),
    lastName: details.lastName.trim(),
    username: details.username.trim(),
    ...(email.toLowerCase() !== before ? { currentPassword: details.currentPassword ?? "" } : {}),
  };
  const result = await editUser.run(body);
  if (!result.ok) {
    $editDetails.set({ phase: "failed", error: result.error });
    return;
  }
  if (!isEditSuccess(result.value.success)) {
    $editDetails.set({ phase: "failed", error: null });
    return;
  }
  await loadUser.run();
  const pending = result.value.pendingEmail;
  $editDetails.set({
    phase: "saved",
    pendingEmail: pending ?? (email.toLowerCase() !== before ? email : null),
  });
}
