// The contract's plain constants, apart from its schemas so that browser code can use them
// without loading zod (the checkout's JavaScript budget, issue 8). common.ts re-exports them.

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** Request bodies above this size are refused with 413 body_too_large. */
export const MAX_BODY_BYTES = 64 * 1024;
/** JSON bodies nesting arrays and objects deeper than this are refused with 400 body_too_deep. */
export const MAX_JSON_DEPTH = 32;
/** Logout (spec 2.3): a confirmation form at GET, then its POST. */
export const LOGOUT_PATH = "/login?action=logout";
