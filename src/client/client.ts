// The one HTTP client of the checkout (spec sections 7 and 8), used by the browser's stores and
// by the server's tests alike. Every call is typed from its contract entry, goes to the page's own
// origin with a 30-second timeout, the version header, JSON (or the form variant), and settles as
// a result: the answer, validated with the contract's schema, or a failure normalised as spec
// section 8 says. It never throws for anything the network or the server does. Browser-safe: no
// Node imports; the network is the injected `fetch` (STYLE.md point 8).

import { isKnownErrorCode, type Method, type Route } from "../contract/endpoints.ts";
import type { Endpoint, ErrorsOf } from "../contract/index.ts";
import { normaliseCallError } from "../domain/errors/call-errors.ts";
import { CALL_ERROR_MESSAGES } from "../domain/errors/messages.ts";
import type {
  ApiFailure,
  CallArgs,
  CallOptions,
  CallResult,
  CallValue,
  FailureKind,
  Full,
} from "./call-types.ts";
import { buildRequest, CallInputError } from "./request.ts";

export type * from "./call-types.ts";
export { CLIENT_CHANNEL, VERSION_HEADER } from "./request.ts";

/** The part of `fetch` the client uses; tests pass a scripted fake. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export type ApiClientOptions = {
  /** Default: the page's `fetch`. */
  fetch?: FetchLike;
  /** Prefix of every path. Default "": the page's own origin. */
  baseUrl?: string;
  /** Default 30 s (spec 7). */
  timeoutMs?: number;
  /** This build's version, sent as `X-Client-Version: checkout/<version>`. */
  version: string;
  /** Told of every failure (error reporting); the failure is returned all the same. */
  onError?: (failure: ApiFailure, endpoint: Route) => void;
};

export type ApiClient = {
  /** A call of the contract with its schemas (tests): answers are validated. */
  call<E extends Endpoint>(endpoint: E, ...args: CallArgs<E>): Promise<CallResult<E>>;
  /**
   * A call of the bare route table (browser code): typed from the contract's schemas, its answer
   * taken as the type says.
   */
  call<R extends Route>(endpoint: R, ...args: CallArgs<Full<R>>): Promise<CallResult<Full<R>>>;
};

const DEFAULT_TIMEOUT_MS = 30_000;

const METHODS: readonly string[] = ["GET", "POST", "PUT", "DELETE"] satisfies Method[];

/** Settles with `promise`, or rejects as soon as `signal` aborts (a fetch may ignore it). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {}); // settled later, unread: not an unhandled rejection
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeIssues(error: { issues: readonly { path: PropertyKey[]; message: string }[] }) {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join(".") || "(answer)"}: ${issue.message}`)
    .join("; ");
}

/**
 * The result of an HTTP answer: the validated value, or the failure spec section 8 describes. A
 * route of the bare table (browser code) has no schemas: the answer of this site's own server is
 * taken as its type says (the server validates its answers in tests and local runs). A full entry
 * (tests) is checked.
 */
function settle<E extends Endpoint>(
  endpoint: Route & Partial<Endpoint>,
  response: Response,
  json: unknown,
): CallResult<E> {
  const { status } = response;
  if (response.ok) {
    if (!endpoint.response) return { ok: true, value: json as CallValue<E>, status };
    const checked = endpoint.response.safeParse(json);
    if (checked.success) return { ok: true, value: checked.data as CallValue<E>, status };
    return {
      ok: false,
      error: {
        kind: "invalid-response",
        message: CALL_ERROR_MESSAGES.invalidResponse,
        status,
        detail: describeIssues(checked.error),
      },
    };
  }
  // The user info call reads its signed-out answer (401) as an answer (spec 7).
  if (endpoint.acceptsBelow500 && status < 500) {
    if (!endpoint.answerBelow500) return { ok: true, value: json as CallValue<E>, status };
    const checked = endpoint.answerBelow500.safeParse(json);
    if (checked.success) return { ok: true, value: checked.data as CallValue<E>, status };
  }
  const normalised = normaliseCallError({
    kind: "response",
    status,
    statusText: response.statusText,
    body: json,
  });
  const error: ApiFailure<ErrorsOf<E>> = {
    kind: "http",
    message: normalised.message,
    status,
  };
  // The bank's step of a payment (authentication_required), as this site's server sent it.
  const action = (json as Pick<ApiFailure, "action"> | null)?.action;
  if (action) error.action = action;
  // invalid_request names its fields (`{ path, message }[]`); this site's server is taken as typed.
  const fields = (json as { fields?: ApiFailure["fields"] } | null)?.fields;
  if (Array.isArray(fields)) error.fields = fields;
  if (normalised.code !== undefined) {
    error.errorCode = normalised.code;
    // The browser's schema-less table carries no lists: the closed set stands in (the server's
    // tests prove each route answers only its endpoint's codes, src/server/error-codes.test.ts).
    const listed = endpoint.errors as readonly string[] | undefined;
    if (listed ? listed.includes(normalised.code) : isKnownErrorCode(normalised.code)) {
      error.code = normalised.code as ErrorsOf<E>;
    }
  }
  return { ok: false, error };
}

function failure(kind: FailureKind): ApiFailure<never> {
  switch (kind) {
    case "timeout": {
      const { message, status } = normaliseCallError({ kind: "timeout" });
      return { kind, message, status: status as "ECONNABORTED" };
    }
    case "aborted":
      return {
        kind,
        message: CALL_ERROR_MESSAGES.aborted,
        status: CALL_ERROR_MESSAGES.abortedCode,
      };
    default: {
      const { message } = normaliseCallError({ kind: "no-response" });
      return { kind, message, status: 404 };
    }
  }
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const fetchImpl: FetchLike = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const baseUrl = options.baseUrl ?? "";
  const { version } = options;

  async function run<E extends Endpoint>(
    endpoint: Route & Partial<Endpoint>,
    callOptions: CallOptions<E>,
  ): Promise<CallResult<E>> {
    if (!METHODS.includes(endpoint.method)) {
      // Spec 8's warning; only an untyped caller can get here (the types know every method).
      console.warn(CALL_ERROR_MESSAGES.unknownMethodWarning);
      return { ok: false, error: failure("unknown-method") };
    }
    let request: ReturnType<typeof buildRequest>;
    try {
      request = buildRequest(endpoint, callOptions, { baseUrl, version });
    } catch (error) {
      if (!(error instanceof CallInputError)) throw error;
      return {
        ok: false,
        error: {
          kind: "invalid-request",
          message: CALL_ERROR_MESSAGES.invalidRequest,
          status: 400,
          detail: error.message,
        },
      };
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort();
      },
      callOptions.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    const stop = () => controller.abort();
    const { signal } = callOptions;
    if (signal?.aborted) controller.abort();
    else signal?.addEventListener("abort", stop, { once: true });
    // Why a call ended without an answer: our timer, the caller, or the network.
    const lost = () =>
      failure(timedOut ? "timeout" : controller.signal.aborted ? "aborted" : "network");
    try {
      if (controller.signal.aborted) return { ok: false, error: lost() };
      let response: Response;
      let text: string;
      try {
        response = await abortable(
          fetchImpl(request.url, {
            method: request.method,
            headers: request.headers,
            ...(request.body !== undefined ? { body: request.body } : {}),
            credentials: "same-origin",
            signal: controller.signal,
          }),
          controller.signal,
        );
        // The timeout covers the whole answer, body included.
        text = await abortable(response.text(), controller.signal);
      } catch {
        return { ok: false, error: lost() };
      }
      return settle<E>(endpoint, response, parseJson(text));
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
    }
  }

  return {
    async call(endpoint: Route, ...args: unknown[]) {
      const result = await run<Endpoint>(endpoint, (args[0] ?? {}) as CallOptions<Endpoint>);
      if (!result.ok) options.onError?.(result.error, endpoint);
      return result;
    },
  };
}
