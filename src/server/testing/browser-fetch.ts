// A browser's cookie jar over fetch, for tests that run the browser's stores against a real
// server: the session cookie the server sets is sent back on every later call, as a browser
// would. `onCall` sees each path called (to prove a call was or was not made); `onAnswer` each
// call with the body sent and the status answered, which is how a browser-side test reads what
// reached the server (through the API a browser sees, never the server's tables).
import type { FetchLike } from "../../client/client.ts";

export type AnsweredCall = { path: string; body: unknown; status: number };

export function browserFetch(
  baseUrl: string,
  onCall?: (path: string) => void,
  onAnswer?: (call: AnsweredCall) => void,
): FetchLike {
  const jar = new Map<string, string>();
  return async (url, init) => {
    onCall?.(new URL(url, baseUrl).pathname);
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const response = await fetch(`${baseUrl}${url}`, { ...init, headers });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (pair && eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    if (onAnswer) {
      const sent = typeof init.body === "string" ? init.body : undefined;
      let body: unknown = sent;
      try {
        body = sent === undefined ? undefined : JSON.parse(sent);
      } catch {
        // a form body stays text
      }
      onAnswer({ path: new URL(url, baseUrl).pathname, body, status: response.status });
    }
    return response;
  };
}
