// Changing an account's e-mail address (issue 18, item 12). The person proves the current
// password; the account keeps its old address (and signs in with it) until the code sent to the
// new address is entered; the old address is told, with the new one masked; and every other
// session of the account ends, so a stolen session cannot quietly move the account elsewhere.
import { maskEmail } from "../../domain/account/mask-email.ts";
import { keyedHash, randomCode } from "../auth/tokens.ts";
import type { Queryable } from "../db/db.ts";
import { EmailChanges } from "../db/email-changes.ts";
import { Sessions } from "../db/sessions.ts";
import type { User } from "../db/users.ts";
import { Users } from "../db/users.ts";
import type { Mailer } from "../mail/mailer.ts";
import { EMAIL_CODE_MAX_ATTEMPTS, EMAIL_CODE_TTL_MS } from "./emails.ts";

/** Bound to the user and the new address: a code sent to one address changes to no other. */
const changeHash = (secret: Buffer, userId: number, email: string, code: string) =>
  keyedHash(secret, `email-change:${userId}:${email}:${code}`);

/**
 * Records the change waiting for its code, mails the code to the new address and a notice to the
 * old one, and ends the user's other sessions (all but `keepSession`).
 */
export async function requestEmailChange(
  tx: Queryable,
  deps: { secret: Buffer; mailer: Mailer },
  user: User,
  input: { email: string; keepSession: string | null; now: number },
): Promise<void> {
  const { email, now } = input;
  const code = randomCode(6);
  await EmailChanges.put(tx, {
    userId: user.id,
    email,
    codeHash: changeHash(deps.secret, user.id, email, code),
    createdAt: now,
    expiresAt: now + EMAIL_CODE_TTL_MS,
  });
  await deps.mailer.queue(tx, {
    to: email,
    subject: `Your verification code: ${code}`,
    text: [
      `Hello ${user.firstName},`,
      "",
      `Your verification code is ${code}. Enter it in the app to make this your account's e-mail address.`,
      "It expires in 30 minutes. If you did not ask for it, you can ignore this e-mail.",
    ].join("\n"),
  });
  await deps.mailer.queue(tx, {
    to: user.email,
    subject: "Your e-mail address is being changed",
    text: [
      `Hello ${user.firstName},`,
      "",
      `Someone signed in to your account asked to change its e-mail address to ${maskEmail(email)}.`,
      "Your address stays as it is until the code sent to the new address is entered, and every other device was signed out.",
      "If this was not you, sign in and change your password now.",
    ].join("\n"),
  });
  await Sessions.deleteOthersOf(tx, user.id, input.keepSession);
}

/**
 * Applies the pending change when `code` is its code: the new address becomes the account's,
 * verified. "none" when there is no pending change or the code is not its code (a wrong code is
 * counted; the change is dropped after EMAIL_CODE_MAX_ATTEMPTS), "taken" when another account
 * took the address meanwhile (the change is dropped).
 */
export async function confirmEmailChange(
  tx: Queryable,
  secret: Buffer,
  userId: number,
  code: string,
  now: number,
): Promise<"changed" | "none" | "taken"> {
  const change = await EmailChanges.activeFor(tx, userId, now);
  if (!change) return "none";
  if (change.codeHash !== changeHash(secret, userId, change.email, code)) {
    if (change.attempts + 1 >= EMAIL_CODE_MAX_ATTEMPTS) await EmailChanges.delete(tx, userId);
    else await EmailChanges.countAttempt(tx, userId);
    return "none";
  }
  await EmailChanges.delete(tx, userId);
  if (await Users.byEmail(tx, change.email)) return "taken";
  await Users.update(tx, userId, { email: change.email, emailVerified: true });
  return "changed";
}
