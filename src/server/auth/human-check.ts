// The server's side of the invisible human check on the reset-password page (spec 2.7). The
// default verifier checks the sandbox's proof of work (src/domain/account/human-check.ts); a real
// provider (reCAPTCHA, Turnstile, hCaptcha) is another HumanVerifier passed to startServer as
// `humanCheck`, with the browser's HumanCheck swapped to match (src/browser/human-check.ts).
import { createHash } from "node:crypto";
import {
  forgotChallenge,
  resetChallenge,
  verifySolution,
} from "../../domain/account/human-check.ts";

export type HumanVerifier = {
  /** True when `answer` (the request's recaptchaResponse) shows a person asked for this reset. */
  verifyReset(input: { vc: string; email: string; answer: string | undefined }): Promise<boolean>;
  /** True when `answer` shows a person asked for a reset link for `email` (issue 22). */
  verifyForgot(input: { email: string; answer: string | undefined }): Promise<boolean>;
};

const sha256 = (text: string) => new Uint8Array(createHash("sha256").update(text).digest());

export const sandboxHumanVerifier: HumanVerifier = {
  verifyReset: ({ vc, email, answer }) => verifySolution(resetChallenge(vc, email), answer, sha256),
  verifyForgot: ({ email, answer }) => verifySolution(forgotChallenge(email), answer, sha256),
};
