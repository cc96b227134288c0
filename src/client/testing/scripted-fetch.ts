// A scripted stand-in for `fetch` (STYLE.md point 8): each call takes the next step of the script
// and every request is recorded, so tests see exactly what the client sent. Browser-safe.
import type { FetchLike } from "../client.ts";

export type Step =
  /** Answer with this status and body (an object is sent as JSON). */
  | { status: number; body?: unknown; statusText?: string; headers?: Record<string, string> }
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

export function scriptedFetch(...steps: Step[]): ScriptedFetch {
  const sent: Sent[] = [];
  const fake = (async (url: string, init: RequestInit) => {
    sent.push({
      url,
      method: init.method ?? "GET",
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === "string" ? init.body : undefined,
      credentials: init.credentials,
    });
    const step = steps.shift();
    if (step === undefined) throw new Error(`No scripted answer for ${url}`);
    if (step === "network") throw new TypeError("Failed to fetch");
    if (step === "hang") return new Promise<Response>(() => {});
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
  }) as ScriptedFetch;
  fake.sent = sent;
  return fake;
}
