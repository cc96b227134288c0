// How the framework layer ends a request before or around a handler: body parsing (body.ts), the
// router's steps (routing.ts: sign-in, rate limits, the Idempotency-Key, the account's lock), the
// request context's guards (context.ts: `requireUser`, `limit`) and the app's own refusals
// (app.ts, fastify-server.ts). A handler never throws it: it refuses with `return fail(...)`
// (reply.ts), the one way, so what it may answer is typed from its contract entry.
import type { ApiError } from "../../domain/errors/api-errors.ts";
import type { Headers } from "./reply.ts";

/** Thrown by the framework layer to end a request with an error answer (app.ts writes it). */
export class HttpError extends Error {
  readonly error: ApiError;
  readonly headers: Headers | undefined;
  constructor(error: ApiError, headers?: Headers) {
    super(error.body.message);
    this.name = "HttpError";
    this.error = error;
    this.headers = headers;
  }
}
