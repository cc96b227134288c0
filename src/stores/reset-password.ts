// The reset-password form of spec 2.7, 4, 5 and 8: idle, then the invisible human check, then
// the loader, then success or error. The field rules and messages are domain/account/password.ts;
// this holds what was typed, which fields were visited, the phase, and the countdown to sign-in.
import { computed, map } from "nanostores";
import { type HumanCheck, sandboxHumanCheck } from "../browser/human-check.ts";
import { endpoints } from "../contract/endpoints.ts";
import { checkResetForm, resetLinkEmail, resetOutcome } from "../domain/account/password.ts";
import { hrefFor } from "../domain/checkout/screens.ts";
import { RESET_PASSWORD_MESSAGES } from "../domain/errors/messages.ts";
import { api } from "./api.ts";
import { $location, $query, navigate } from "./router.ts";

export type ResetPhase = "idle" | "human-check" | "loading" | "success" | "error";

export type ResetPasswordState = {
  password: string;
  confirm: string;
  /** A field's message shows once the person has typed in it or left it. */
  visited: { password: boolean; confirm: boolean };
  phase: ResetPhase;
  /** The answer's message (section 8); for the countdown it is rebuilt from `seconds`. */
  message: string | null;
  /** Seconds left before going to sign-in (non-campaign success), else null. */
  seconds: number | null;
  /** An error happened on this page: the button reads 'RESET' from then on (spec 2.7). */
  failedOnce: boolean;
};

const INITIAL: ResetPasswordState = {
  password: "",
  confirm: "",
  visited: { password: false, confirm: false },
  phase: "idle",
  message: null,
  seconds: null,
  failedOnce: false,
};

export const $resetPassword = map<ResetPasswordState>({ ...INITIAL });

/** The link's e-mail (without the campaign hash) and whether it marks a campaign user. */
export const $resetLink = computed([$query, $location], (query, location) => ({
  vc: query.vc ?? "",
  ...resetLinkEmail(query.email ?? "", location.hash),
}));

/** The section-5 check of what was typed: field messages, the match line, canSubmit. */
export const $resetCheck = computed($resetPassword, (s) =>
  checkResetForm({ password: s.password, confirm: s.confirm }),
);

let humanCheck: HumanCheck | null = null;
/** A real provider's check replaces the sandbox's (src/browser/human-check.ts). */
export function installHumanCheck(check: HumanCheck): void {
  humanCheck = check;
}
export function currentHumanCheck(): HumanCheck {
  humanCheck ??= sandboxHumanCheck(globalThis.crypto.subtle);
  return humanCheck;
}

function patch(fields: Partial<ResetPasswordState>): void {
  $resetPassword.set({ ...$resetPassword.get(), ...fields });
}

export function setResetField(field: "password" | "confirm", value: string): void {
  const s = $resetPassword.get();
  patch({ [field]: value, visited: { ...s.visited, [field]: true } });
}

export function visitResetField(field: "password" | "confirm"): void {
  const s = $resetPassword.get();
  if (!s.visited[field]) patch({ visited: { ...s.visited, [field]: true } });
}

let timer: ReturnType<typeof setInterval> | null = null;
function stopCountdown(): void {
  if (timer !== null) clearInterval(timer);
  timer = null;
}

/** Counts down once a second, then goes to sign-in (spec 4: 5 seconds). */
function startCountdown(seconds: number): void {
  stopCountdown();
  patch({ seconds, message: RESET_PASSWORD_MESSAGES.successRedirect(seconds) });
  timer = setInterval(() => {
    const left = ($resetPassword.get().seconds ?? 1) - 1;
    if (left <= 0) {
      stopCountdown();
      navigate(hrefFor("login"));
      return;
    }
    patch({ seconds: left, message: RESET_PASSWORD_MESSAGES.successRedirect(left) });
  }, 1000);
}

function fail(message: string): void {
  patch({ phase: "error", message, failedOnce: true });
}

/** Submits the form: human check, then the change-password call (spec 7), then its outcome. */
export async function submitNewPassword(): Promise<void> {
  const state = $resetPassword.get();
  if (!$resetCheck.get().canSubmit) return;
  if (state.phase === "human-check" || state.phase === "loading" || state.phase === "success") {
    return;
  }
  const link = $resetLink.get();
  patch({ phase: "human-check", message: null });
  let answer: string | null = null;
  try {
    answer = await currentHumanCheck().forReset({ vc: link.vc, email: link.email });
  } catch {
    answer = null;
  }
  if (answer === null) {
    fail(RESET_PASSWORD_MESSAGES.problem);
    return;
  }
  patch({ phase: "loading" });
  const result = await api().call(endpoints.changePassword, {
    body: {
      email: link.email,
      newPassword: state.password,
      confirmNewPassword: state.confirm,
      vc: link.vc,
      recaptchaResponse: answer,
    },
  });
  const outcome = resetOutcome(result.ok ? result.value : "network-failure", link.campaignUser);
  if (outcome.kind === "error") {
    fail(outcome.message);
    return;
  }
  patch({ phase: "success", message: outcome.message, seconds: null });
  if (outcome.redirectSeconds !== null) startCountdown(outcome.redirectSeconds);
}

/** Leaves the page: the countdown stops and the form starts empty next time. */
export function resetResetPassword(): void {
  stopCountdown();
  $resetPassword.set({ ...INITIAL });
}
