// Password rules of spec sections 5 and 9: 6 to 50 characters, both reset fields required and
// matching. The form check gives the page's messages; the server check gives failedValidations.
import { PASSWORD_FIELD_MESSAGES, RESET_PASSWORD_MESSAGES } from "../errors/messages.ts";

const PASSWORD_MIN_LENGTH = 6;
const PASSWORD_MAX_LENGTH = 50;
const RESET_REDIRECT_SECONDS = 5;

/**
 * The campaign hash of spec 2.7. The spec says only that "an email ending in a campaign hash marks
 * a campaign user"; we read it as a reset link whose e-mail parameter is followed by the fragment
 * `#campaign` (`…&email=pat@example.com#campaign`), or carries it percent-encoded at its end
 * (`email=pat@example.com%23campaign`). Campaign pages send such links.
 */
const CAMPAIGN_HASH = "#campaign";

/** The link's e-mail without the campaign hash, and whether the hash marks a campaign user. */
export function resetLinkEmail(
  emailParam: string,
  urlHash: string,
): { email: string; campaignUser: boolean } {
  if (emailParam.endsWith(CAMPAIGN_HASH)) {
    return { email: emailParam.slice(0, -CAMPAIGN_HASH.length), campaignUser: true };
  }
  return { email: emailParam, campaignUser: urlHash === CAMPAIGN_HASH };
}

/** The field message for one password field, or null when the field is fine. */
function passwordFieldError(value: string): string | null {
  if (value.length === 0) return PASSWORD_FIELD_MESSAGES.empty;
  if (value.length < PASSWORD_MIN_LENGTH) return PASSWORD_FIELD_MESSAGES.tooShort;
  if (value.length > PASSWORD_MAX_LENGTH) return PASSWORD_FIELD_MESSAGES.tooLong;
  return null;
}

export type ResetFormCheck = {
  password: string | null;
  confirm: string | null;
  /** 'OK' when both match, 'Passwords do not match' when both are filled and differ. */
  match: string | null;
  canSubmit: boolean;
};

/** Submit is enabled only when both fields are non-empty, valid and equal. */
export function checkResetForm(input: { password: string; confirm: string }): ResetFormCheck {
  const password = passwordFieldError(input.password);
  const confirm = passwordFieldError(input.confirm);
  let match: string | null = null;
  if (input.password.length > 0 && input.confirm.length > 0) {
    match =
      input.password === input.confirm
        ? PASSWORD_FIELD_MESSAGES.ok
        : PASSWORD_FIELD_MESSAGES.notMatching;
  }
  const canSubmit = password === null && confirm === null && match === PASSWORD_FIELD_MESSAGES.ok;
  return { password, confirm, match, canSubmit };
}

const FAILED_VALIDATIONS = [
  "emptyPasswords",
  "PasswordTooShort",
  "PasswordsNotMatch",
  // Not among the codes the page handles (spec section 5): it shows the generic problem message.
  "PasswordTooLong",
] as const;
export type FailedValidation = (typeof FAILED_VALIDATIONS)[number];

/** The change-password answer's code when the human check failed (the page's problem message). */
export const HUMAN_CHECK_FAILED = "humanCheckFailed";

/** What the change-password call reports as failedValidations (empty when the pair is valid). */
export function passwordValidations(newPassword: string, confirm: string): FailedValidation[] {
  if (newPassword.length === 0 || confirm.length === 0) return ["emptyPasswords"];
  const failed: FailedValidation[] = [];
  if (newPassword.length < PASSWORD_MIN_LENGTH || confirm.length < PASSWORD_MIN_LENGTH) {
    failed.push("PasswordTooShort");
  }
  if (newPassword.length > PASSWORD_MAX_LENGTH || confirm.length > PASSWORD_MAX_LENGTH) {
    failed.push("PasswordTooLong");
  }
  if (newPassword !== confirm) failed.push("PasswordsNotMatch");
  return failed;
}

const FIELD_MESSAGE_FOR: Partial<Record<FailedValidation, string>> = {
  emptyPasswords: PASSWORD_FIELD_MESSAGES.empty,
  PasswordTooShort: PASSWORD_FIELD_MESSAGES.tooShort,
  PasswordsNotMatch: PASSWORD_FIELD_MESSAGES.notMatching,
};

export type ResetOutcome =
  | { kind: "success"; message: string; redirectSeconds: number | null }
  | { kind: "error"; message: string };

/**
 * The page's message for a change-password answer (spec section 8): success (countdown, or the
 * campaign message), 'This link has expired.' for success false without failedValidations, the
 * field message for a known validation, and the generic problem message otherwise.
 */
export function resetOutcome(
  answer: { success: boolean; failedValidations?: readonly string[] } | "network-failure",
  campaignUser: boolean,
): ResetOutcome {
  if (answer === "network-failure")
    return { kind: "error", message: RESET_PASSWORD_MESSAGES.problem };
  if (answer.success) {
    return campaignUser
      ? { kind: "success", message: RESET_PASSWORD_MESSAGES.successCampaign, redirectSeconds: null }
      : {
          kind: "success",
          message: RESET_PASSWORD_MESSAGES.successRedirect(RESET_REDIRECT_SECONDS),
          redirectSeconds: RESET_REDIRECT_SECONDS,
        };
  }
  const failed = answer.failedValidations ?? [];
  if (failed.length === 0) return { kind: "error", message: RESET_PASSWORD_MESSAGES.linkExpired };
  const known = FIELD_MESSAGE_FOR[failed[0] as FailedValidation];
  return { kind: "error", message: known ?? RESET_PASSWORD_MESSAGES.problem };
}
