// The one stand-in for `fetch` of the browser-side tests (STYLE.md point 8): every request is
// recorded, so tests see exactly what the client sent, and each is answered from a script, in
// order (`scriptedFetch`) or by "METHOD /path" (`routedFetch`). Browser-safe. Tests against a
// real server use its cookie jar instead (src/server/testing/browser-fetch.ts).
import type { FetchLike } from "../client.ts";

export type Step =
  /** Answer with this status and body (an object is sent as JSON), once `until` settled. */
  | {
      status: number;
      body?: unknown;
      statusText?: string;
      headers?: Record<string, string>;
      until?: Promise<unknown>;
    }
  /** The network fails (fetch rejects, as browsers do with a TypeError). */
  | "network"
  /** No answer ever comes (only a timeout or an abort ends the call). */
  | "hang";

export type Sent = {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  credentials: RequestCredentials | undefined;
};

export type ScriptedFetch = FetchLike & { sent: Sent[] };

/** Answers each call with the next step; a call past the script's end throws. */
export function scriptedFetch(...steps: Step[]): ScriptedFetch {
  return recorded((sent) => {
    const step = steps.shift();
    if (step === undefined) throw new Error(`No scripted answer for ${sent.url}`);
    return step;
  });
}

/**
 * Answers each call by its "METHOD /path" with that route's steps in turn, the last one
 * repeating; a route not in the script answers `otherwise` (404).
 */
export function routedFetch(
  routes: Record<string, Step[]>,
  otherwise: Step = { status: 404, statusText: "Not Found" },
): ScriptedFetch {
  return recorded((sent) => {
    const steps = routes[`${sent.method} ${pathOf(sent)}`];
    const step = steps && (steps.length > 1 ? steps.shift() : steps[0]);
    return step ?? otherwise;
  });
}

/** The path a call went to, without its query. */
export function pathOf(sent: Sent): string {
  return new URL(sent.url, "http://localhost").pathname;
}

function recorded(next: (sent: Sent) => Step): ScriptedFetch {
  const sent: Sent[] = [];
  const fake = (async (url: string, init: RequestInit) => {
    const call: Sent = {
      url,
      method: init.method ?? "GET",
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      // A form body (URLSearchParams) as the text it is sent as.
      body:
        typeof init.body === "string" || init.body instanceof URLSearchParams
          ? String(init.body)
          : undefined,
      credentials: init.credentials,
    };
    sent.push(call);
    return answer(next(call));
  }) as ScriptedFetch;
  fake.sent = sent;
  return fake;
}

async function answer(step: Step): Promise<Response> {
  if (step === "network") throw new TypeError("Failed to fetch");
  if (step === "hang") return new Promise<Response>(() => {});
  await step.until;
  const text =
    step.body === undefined
      ? ""
      : typeof step.body === "string"
        ? step.body
        : JSON.stringify(step.body);
  return new Response(text === "" ? null : text, {
    status: step.status,
    statusText: step.statusText ?? "",
    headers: {
      "content-type": typeof step.body === "string" ? "text/html" : "application/json",
      ...step.headers,
    },
  });
}
