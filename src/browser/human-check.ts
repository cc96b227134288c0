// The invisible human check of the reset-password page (spec 2.7), as one interface so a real
// provider can replace the sandbox's. The sandbox solves the proof of work of
// src/domain/account/human-check.ts with WebCrypto; the server's sandbox verifier checks it. A
// real provider (reCAPTCHA v3, Turnstile) is another HumanCheck whose token the server's
// matching HumanVerifier checks (src/server/README.md "Human check").
import {
  forgotChallenge,
  resetChallenge,
  type Sha256,
  solveChallenge,
} from "../domain/account/human-check.ts";

export type HumanCheck = {
  /** The answer to send as recaptchaResponse, or null when the check could not run. */
  forReset(input: { vc: string; email: string }): Promise<string | null>;
  /** The same, for the request of a reset link for `email` (issue 22). */
  forForgot(input: { email: string }): Promise<string | null>;
};

export function sandboxHumanCheck(subtle: SubtleCrypto): HumanCheck {
  const encoder = new TextEncoder();
  const sha256: Sha256 = async (text) =>
    new Uint8Array(await subtle.digest("SHA-256", encoder.encode(text)));
  return {
    forReset: ({ vc, email }) => solveChallenge(resetChallenge(vc, email), sha256),
    forForgot: ({ email }) => solveChallenge(forgotChallenge(email), sha256),
  };
}
