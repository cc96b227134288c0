// A browser's fetch, for tests that run the browser's stores against a real server: the cookies
// the server sets are sent back on every later call, as a browser would, by the same cookie jar
// the server's tests use (TestClient, harness.ts). `onCall` sees each path called (to prove a
// call was or was not made); `onAnswer` each call with the body sent and the status answered,
// which is how a browser-side test reads what reached the server (through the API a browser
// sees, never the server's tables).
import type { FetchLike } from "../../client/client.ts";
import { TestClient } from "./harness.ts";

export type AnsweredCall = { path: string; body: unknown; status: number };

/** `session`: the server's address (a new jar), or a test client whose session to share. */
export function browserFetch(
  session: string | TestClient,
  onCall?: (path: string) => void,
  onAnswer?: (call: AnsweredCall) => void,
): FetchLike {
  const client = typeof session === "string" ? new TestClient(session) : session;
  return async (url, init) => {
    const path = new URL(url, client.base).pathname;
    onCall?.(path);
    const response = await client.fetch(url, init);
    if (onAnswer) {
      const sent = typeof init.body === "string" ? init.body : undefined;
      let body: unknown = sent;
      try {
        body = sent === undefined ? undefined : JSON.parse(sent);
      } catch {
        // a form body stays text
      }
      onAnswer({ path, body, status: response.status });
    }
    return response;
  };
}
