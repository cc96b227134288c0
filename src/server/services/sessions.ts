// Creating and ending sessions. The cookie holds a random id; the table holds its HMAC.
import { randomToken, tokenHash } from "../auth/tokens.ts";
import { DAY_MS } from "../clock.ts";
import { type Ctx, SESSION_COOKIE, SESSION_DAYS } from "../context.ts";
import { Sessions } from "../db/sessions.ts";
import { Users } from "../db/users.ts";
import { clearedCookie, sessionCookie } from "../http/cookies.ts";

/** Starts a new session for the user (a new id at every sign-in) and sets the cookie. */
export async function startSession(ctx: Ctx, userId: number): Promise<void> {
  const sid = randomToken(32);
  const now = ctx.now();
  const previous = ctx.sessionHash();
  await ctx.app.db.transaction(async (tx) => {
    if (previous) await Sessions.delete(tx, previous);
    await Sessions.insert(tx, {
      idHash: tokenHash(sid),
      userId,
      createdAt: now,
      expiresAt: now + SESSION_DAYS * DAY_MS,
    });
    await Users.update(tx, userId, { lastVisit: now });
  });
  ctx.addHeader(
    "Set-Cookie",
    sessionCookie(SESSION_COOKIE, sid, {
      maxAgeSeconds: SESSION_DAYS * 86_400,
      secure: ctx.secure,
    }),
  );
}

export async function endSession(ctx: Ctx): Promise<void> {
  const hash = ctx.sessionHash();
  if (hash) await ctx.app.db.transaction((tx) => Sessions.delete(tx, hash));
  ctx.addHeader("Set-Cookie", clearedCookie(SESSION_COOKIE, ctx.secure));
}
