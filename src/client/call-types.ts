// The types of a call, computed from its contract entry: what it takes (path parameters, query,
// body, Idempotency-Key) and what it gives (the answer, or a failure with one of the endpoint's
// error codes). A payload that does not match the schema, a missing parameter or a missing key on
// a payment call is a compile error. Browser-safe: types only.
//
// Browser code calls the bare route table (contract/endpoints.ts, no schemas at run time); its
// types are the schemas' all the same: `Full<R>` finds the contract's entry with the same method
// and path (unique: src/server/http/router.test.ts). Tests call the full entries.
import type { z } from "zod";
import type { Api, Endpoint, ErrorCode, ErrorsOf, Route } from "../contract/index.ts";

/** The contract's entry (with its schemas) of a route of the table; a full entry as it is. */
export type Full<R extends Route> = R extends Endpoint
  ? R
  : {
      [K in keyof Api]: Api[K] extends { method: R["method"]; path: R["path"] } ? Api[K] : never;
    }[keyof Api];

/** The `:name` parameters of a path: "/api/5/invites/:code" gives "code". */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type ParamsOption<E extends Endpoint> = [PathParamNames<E["path"]>] extends [never]
  ? { params?: undefined }
  : { params: Record<PathParamNames<E["path"]>, string | number> };

/** The empty object type: `Nothing extends T` holds when every key of T is optional. */
type Nothing = Record<never, never>;

/** Optional when the schema accepts nothing (every field optional), required otherwise. */
type SchemaOption<K extends string, S> = S extends z.ZodType
  ? undefined extends z.input<S>
    ? { [P in K]?: z.input<S> }
    : Nothing extends z.input<S>
      ? { [P in K]?: z.input<S> }
      : { [P in K]: z.input<S> }
  : { [P in K]?: undefined };

type KeyOption<E extends Endpoint> = E["idempotent"] extends true
  ? {
      /** One new key per attempt; the same key only to retry that very request. */
      idempotencyKey: string;
    }
  : { idempotencyKey?: undefined };

/** A body a form can carry: flat, with text, number or true/false values. */
type FormValue = string | number | boolean | null | undefined;
type FormOption<E extends Endpoint> = E["body"] extends z.ZodType
  ? NonNullable<z.input<E["body"]>> extends Record<string, FormValue>
    ? {
        /** Send the body as a form rather than JSON (default: the endpoint's `form` flag). */
        form?: boolean;
      }
    : { form?: false }
  : { form?: undefined };

export type CallOptions<E extends Endpoint> = ParamsOption<E> &
  SchemaOption<"query", E["query"]> &
  SchemaOption<"body", E["body"]> &
  KeyOption<E> &
  FormOption<E> & {
    /** Aborts the call; it then settles as a failure of kind "aborted". */
    signal?: AbortSignal;
    /** This call's timeout (default: the client's). */
    timeoutMs?: number;
  };

type RequiredKeys<T> = { [K in keyof T]-?: Nothing extends Pick<T, K> ? never : K }[keyof T];

/** The options argument: optional when nothing in it is required. */
export type CallArgs<E extends Endpoint> = [RequiredKeys<CallOptions<E>>] extends [never]
  ? [options?: CallOptions<E>]
  : [options: CallOptions<E>];

/** What a successful call gives: the 2xx answer, or for `acceptsBelow500` calls the 4xx answer. */
export type CallValue<E extends Endpoint> =
  | z.output<E["response"]>
  | (E extends { answerBelow500: infer B extends z.ZodType } ? z.output<B> : never);

/**
 * How a call failed. `timeout`, `network` and `http` are the cases of spec section 8; `aborted`
 * is a call its caller cancelled; `invalid-response` an answer that breaks the contract;
 * `invalid-request` a call that could not be sent (a path parameter such as ".."), and
 * `unknown-method` an endpoint whose method the client does not know (untyped callers only).
 */
export type FailureKind =
  | "timeout"
  | "network"
  | "http"
  | "aborted"
  | "invalid-response"
  | "invalid-request"
  | "unknown-method";

/** A failed call, normalised as spec section 8 says: a message and a status. */
export type ApiFailure<C extends ErrorCode = ErrorCode> = {
  kind: FailureKind;
  /** 'Api timeout response.', 'NOT FOUND', the body's message, or the HTTP status text. */
  message: string;
  /** The HTTP status; 404 without a response; 'ECONNABORTED' on timeout; 'ERR_CANCELED' aborted. */
  status: number | "ECONNABORTED" | "ERR_CANCELED";
  /** The body's error_code when it is one this endpoint lists: what the UI switches on. */
  code?: C;
  /** The body's error_code as received, listed or not (logs and the server's tests read it). */
  errorCode?: string;
  /** Why an answer was refused (contract validation), for logs; never shown to a person. */
  detail?: string;
  /** `authentication_required`: the bank's step the payment step shows (ErrorBody's action). */
  action?: { paymentId: string; clientSecret: string; url?: string | undefined };
  /** invalid_request: what is wrong with each field (path joined with "."), to show beside it. */
  fields?: { path: string; message: string }[];
};

export type ApiResult<T, C extends ErrorCode = ErrorCode> =
  | { ok: true; value: T; status: number }
  | { ok: false; error: ApiFailure<C> };

export type CallResult<E extends Endpoint> = ApiResult<CallValue<E>, ErrorsOf<E>>;
