// The team owner's invitation link on the account page (issue 34, item 3), asked for when the
// owner wants it (POST /api/5/team/invite: the team's open link, made once). A plain atom, loaded
// with the account chunk; a refusal is shown where the link would be.
import { atom } from "nanostores";
import type { ApiFailure } from "../client/client.ts";
import { endpoints } from "../contract/endpoints.ts";
import { api } from "./api.ts";

export type InviteLink = { path: string } | { failure: ApiFailure } | null;

export const $inviteLink = atom<InviteLink>(null);

export async function showInviteLink(): Promise<void> {
  const result = await api().call(endpoints.teamInvite, { body: {} });
  $inviteLink.set(result.ok ? { path: result.value.path } : { failure: result.error });
}
