// Sessions and passwords: sign-up, sign-in, forgot password, change password (spec sections 2, 5, 7).
import { z } from "zod";
import { SuccessFlag, typedText } from "./common.ts";

export const SignUpRequest = z.object({
  email: z.email().max(254),
  password: z.string().min(6).max(50),
  firstName: typedText({ min: 1, max: 100 }),
  lastName: typedText({ max: 100 }),
});
export const SignUpResponse = z.object({
  success: z.literal(true),
  userId: z.number().int(),
  activationRequired: z.boolean(),
});

// Sign-in does not restate the password policy: any non-empty password is checked.
export const SignInRequest = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1000),
});
export const SignInResponse = z.object({ success: z.literal(true), userId: z.number().int() });

export const ForgotRequest = z.object({
  email: z.string().trim().min(1).max(254),
  /** The invisible human check's answer for this address (src/browser/human-check.ts). */
  recaptchaResponse: z.string().max(2000).optional(),
});
/**
 * The same answer whether or not an account has this address; success false (humanCheckFailed)
 * only when the human check's answer is missing or wrong, which says nothing about the address.
 */
export const ForgotResponse = z.object({
  success: z.boolean(),
  failedValidations: z.array(z.string()).optional(),
});

// Empty and short passwords must reach the server's validation (failedValidations), so the
// strings are not constrained here beyond a sanity cap.
export const ChangePasswordRequest = z.object({
  email: z.string().max(254),
  newPassword: z.string().max(1000),
  confirmNewPassword: z.string().max(1000),
  vc: z.string().max(200),
  recaptchaResponse: z.string().max(10_000).optional(),
});
export const ChangePasswordResponse = SuccessFlag.extend({
  /** emptyPasswords, PasswordTooShort, PasswordsNotMatch (and PasswordTooLong). */
  failedValidations: z.array(z.string()),
});

/** Logout is a page, not a JSON call: GET shows a confirmation form, POST signs out. */
export { LOGOUT_PATH } from "./constants.ts";
