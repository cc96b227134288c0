// How the browser client turns any failed call into `{ message, status }` (spec section 8).
// Pure: the client feeds it what happened; tests pin each branch.
import { CALL_ERROR_MESSAGES } from "./messages.ts";

export type CallFailure =
  | { kind: "timeout" }
  | { kind: "no-response" }
  | { kind: "response"; status: number; statusText: string; body: unknown };

export type NormalisedError = {
  message: string;
  status: number | string;
  /** The server's error_code when the body carried one. */
  code?: string;
};

function bodyWithContent(body: unknown): { message: string; error_code?: string } | null {
  if (typeof body !== "object" || body === null) return null;
  const { message, error_code } = body as { message?: unknown; error_code?: unknown };
  if (typeof message !== "string" || message.length === 0) return null;
  return typeof error_code === "string" ? { message, error_code } : { message };
}

export function normaliseCallError(failure: CallFailure): NormalisedError {
  switch (failure.kind) {
    case "timeout":
      return { message: CALL_ERROR_MESSAGES.timeout, status: CALL_ERROR_MESSAGES.timeoutCode };
    case "no-response":
      return { message: CALL_ERROR_MESSAGES.noResponse, status: 404 };
    case "response": {
      const body = bodyWithContent(failure.body);
      if (body) {
        return body.error_code === undefined
          ? { message: body.message, status: failure.status }
          : { message: body.message, status: failure.status, code: body.error_code };
      }
      return { message: failure.statusText, status: failure.status };
    }
  }
}
