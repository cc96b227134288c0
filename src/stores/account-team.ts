// The team owner's side of the account page (issue 34, item 3): the invitation link, asked for when
// the owner wants it (POST /api/5/team/invite: the team's open link, made once), and the members
// (GET /api/5/team/members) with Remove behind a confirmation (DELETE /api/5/team/members/:id).
// Plain atoms, loaded with the account chunk; a refusal is shown where it concerns.
import { atom } from "nanostores";
import type { ApiFailure } from "../client/client.ts";
import { accountEndpoints } from "../contract/account-endpoints.ts";
import { api } from "./api.ts";
import { loadContext } from "./user.ts";

export type InviteLink = { path: string } | { failure: ApiFailure } | null;

export const $inviteLink = atom<InviteLink>(null);

export async function showInviteLink(): Promise<void> {
  const result = await api().call(accountEndpoints.teamInvite, { body: {} });
  $inviteLink.set(result.ok ? { path: result.value.path } : { failure: result.error });
}

export type TeamMember = { id: number; email: string; name: string; owner: boolean };
export type TeamMembers = { members: TeamMember[] } | { failure: ApiFailure } | null;

export const $teamMembers = atom<TeamMembers>(null);

/** The member whose removal is being confirmed, if any. */
export const $removing = atom<TeamMember | null>(null);
export const $removeBusy = atom(false);
export const $removeFailure = atom<ApiFailure | null>(null);
/** Said once a member is out, where the list is. */
export const $removedText = atom<string | null>(null);

export async function loadTeamMembers(): Promise<void> {
  const result = await api().call(accountEndpoints.teamMembers);
  $teamMembers.set(result.ok ? { members: result.value.members } : { failure: result.error });
}

export function askToRemove(member: TeamMember): void {
  $removeFailure.set(null);
  $removedText.set(null);
  $removing.set(member);
}

export function keepMember(): void {
  $removing.set(null);
  $removeFailure.set(null);
}

/** Removes the member being confirmed, then shows the team (members and seats) as it is now. */
export async function removeMember(): Promise<void> {
  const member = $removing.get();
  if (!member || $removeBusy.get()) return;
  $removeBusy.set(true);
  $removeFailure.set(null);
  const result = await api().call(accountEndpoints.removeTeamMember, {
    params: { id: member.id },
    body: {},
  });
  if (result.ok) {
    await Promise.all([loadTeamMembers(), loadContext.run()]);
    $removedText.set(`${member.name} is no longer in your team. Their seat is free.`);
    $removing.set(null);
  } else {
    $removeFailure.set(result.error);
  }
  $removeBusy.set(false);
}
