// Asking for a reset link (issue 22, item 2): the e-mail, the invisible human check, then the
// request (spec 7's forgot call). The answer is the same whether or not an account uses the
// address, so the screen says the same either way; the e-mail lands in the outbox (/dev/mailbox
// in a local run). The human check is the reset page's (stores/reset-password.ts).
import { map } from "nanostores";
import type { ApiFailure } from "../client/client.ts";
import { endpoints } from "../contract/endpoints.ts";
import { api } from "./api.ts";
import { currentHumanCheck } from "./reset-password.ts";

export type ForgotPhase = "idle" | "human-check" | "loading" | "sent" | "error";

export type ForgotState = {
  phase: ForgotPhase;
  /** The address the link was asked for (shown in the answer). */
  email: string;
  /** A failed call (rate limit, network): its words come from the error catalogue. */
  failure: ApiFailure | null;
  /** A problem of the screen's own (no address, the human check failed). */
  problem: string | null;
};

export const FORGOT_MESSAGES = {
  empty: "Enter the e-mail address of your account.",
  invalid: "Enter an e-mail address, like name@example.com.",
  problem: "We could not send the link. Please try again.",
  sent: (email: string) =>
    `If an account uses ${email}, we have sent it a link to choose a new password. The link works once, for one hour. Check your inbox and spam folder.`,
} as const;

const INITIAL: ForgotState = { phase: "idle", email: "", failure: null, problem: null };

export const $forgotPassword = map<ForgotState>({ ...INITIAL });

function patch(fields: Partial<ForgotState>): void {
  $forgotPassword.set({ ...$forgotPassword.get(), ...fields });
}

/** A plausible address: something@something.something, no spaces (the server checks the rest). */
function looksLikeEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

/** Asks for a reset link for `email`: the check of the field, the human check, the call. */
export async function requestResetLink(typed: string): Promise<void> {
  const state = $forgotPassword.get();
  if (state.phase === "human-check" || state.phase === "loading") return;
  const email = typed.trim();
  if (email === "" || !looksLikeEmail(email)) {
    patch({
      phase: "error",
      failure: null,
      problem: email === "" ? FORGOT_MESSAGES.empty : FORGOT_MESSAGES.invalid,
    });
    return;
  }
  patch({ phase: "human-check", email, failure: null, problem: null });
  let answer: string | null = null;
  try {
    answer = await currentHumanCheck().forForgot({ email });
  } catch {
    answer = null;
  }
  if (answer === null) {
    patch({ phase: "error", problem: FORGOT_MESSAGES.problem });
    return;
  }
  patch({ phase: "loading" });
  const result = await api().call(endpoints.forgotPassword, {
    body: { email, recaptchaResponse: answer },
  });
  if (!result.ok) {
    patch({ phase: "error", failure: result.error });
    return;
  }
  if (!result.value.success) {
    patch({ phase: "error", problem: FORGOT_MESSAGES.problem });
    return;
  }
  patch({ phase: "sent" });
}

/** Leaving the screen: the form starts empty next time. */
export function resetForgotPassword(): void {
  $forgotPassword.set({ ...INITIAL });
}
