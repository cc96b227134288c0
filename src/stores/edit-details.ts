// Edit details (PUT /api/4/user {email, firstName, lastName, username}): counts as success only
// when the answer's success is true or the string 'true' (spec 5); the account shown is then
// reloaded from the server. What the person typed stays on screen whatever happens. Loaded with
// the account panel only (not part of the app's start-up).
import { atom } from "nanostores";
import type { ApiFailure } from "../api/client.ts";
import { editUser } from "./account-operations.ts";
import { $user, loadUser } from "./user.ts";

export type Details = { email: string; firstName: string; lastName: string; username: string };

export type EditDetailsState =
  | { phase: "idle" }
  | { phase: "saving" }
  | { phase: "saved"; emailChanged: boolean }
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
  const body = {
    email: details.email.trim(),
    firstName: details.firstName.trim(),
    lastName: details.lastName.trim(),
    username: details.username.trim(),
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
  $editDetails.set({ phase: "saved", emailChanged: body.email.toLowerCase() !== before });
}
