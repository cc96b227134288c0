// The session cookie's attributes, written in the order the browser tests and handlers/auth.test
// pin (@fastify/cookie's serializer orders them otherwise). Reading cookies is @fastify/cookie's
// (app.ts).

export type CookieOptions = { maxAgeSeconds: number; secure: boolean };

/** HttpOnly, SameSite=Lax, Path=/, Secure behind https. */
export function sessionCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${options.maxAgeSeconds}`,
  ];
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

export function clearedCookie(name: string, secure: boolean): string {
  return sessionCookie(name, "", { maxAgeSeconds: 0, secure });
}
