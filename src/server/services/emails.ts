// The e-mails the server sends, and the secrets they carry. Secrets are random (reset tokens 256
// bits), stored only as an HMAC, single use and expiring.
import { keyedHash, randomCode, randomToken } from "../auth/tokens.ts";
import type { Queryable } from "../db/db.ts";
import { Secrets } from "../db/secrets.ts";
import type { User } from "../db/users.ts";
import type { Mailer } from "../mail/mailer.ts";

const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const EMAIL_CODE_TTL_MS = 30 * 60 * 1000;
export const EMAIL_CODE_MAX_ATTEMPTS = 5;

export const resetHash = (secret: Buffer, token: string) => keyedHash(secret, `reset:${token}`);
export const codeHash = (secret: Buffer, userId: number, code: string) =>
  keyedHash(secret, `code:${userId}:${code}`);

/** Replaces any earlier code with a new one and queues the e-mail carrying it. */
export async function sendEmailCode(
  tx: Queryable,
  deps: { secret: Buffer; mailer: Mailer },
  user: User,
  now: number,
): Promise<void> {
  const code = randomCode(6);
  await Secrets.voidFor(tx, user.id, "email_code", now);
  await Secrets.insert(tx, {
    hash: codeHash(deps.secret, user.id, code),
    kind: "email_code",
    userId: user.id,
    createdAt: now,
    expiresAt: now + EMAIL_CODE_TTL_MS,
  });
  await deps.mailer.queue(tx, {
    to: user.email,
    subject: `Your verification code: ${code}`,
    text: [
      `Hello ${user.firstName},`,
      "",
      `Your verification code is ${code}. Enter it in the app to verify your e-mail address.`,
      "It expires in 30 minutes. If you did not ask for it, you can ignore this e-mail.",
    ].join("\n"),
  });
}

/** Replaces any earlier reset link with a new one and queues the e-mail carrying it. */
export async function sendResetLink(
  tx: Queryable,
  deps: { secret: Buffer; mailer: Mailer; publicBaseUrl: string },
  user: User,
  now: number,
): Promise<void> {
  const token = randomToken(32);
  await Secrets.voidFor(tx, user.id, "reset", now);
  await Secrets.insert(tx, {
    hash: resetHash(deps.secret, token),
    kind: "reset",
    userId: user.id,
    createdAt: now,
    expiresAt: now + RESET_TOKEN_TTL_MS,
  });
  const link = `${deps.publicBaseUrl}/cart/new-password?${new URLSearchParams({ vc: token, email: user.email })}`;
  await deps.mailer.queue(tx, {
    to: user.email,
    subject: "Reset your password",
    text: [
      `Hello ${user.firstName},`,
      "",
      "Someone asked to reset the password of your account. To choose a new password, open:",
      link,
      "",
      "The link works once and expires in one hour. If you did not ask for it, ignore this e-mail: your password stays as it is.",
    ].join("\n"),
  });
}
