// Provider webhooks (issue 20). Called by the providers, never by the browser, so this entry is
// not part of `api` (nor of the route table the browser loads): the server registers it with its
// raw body, which the signature covers (src/server/handlers/webhooks.ts).
import type { Route } from "./common.ts";

/** Every provider webhook is under this path (exempt from the same-origin check). */
export const WEBHOOK_PATH_PREFIX = "/api/5/webhooks/";

/**
 * Stripe's events are a few KB; its largest objects stay well under this. The most any route of
 * the server reads (its HTTP edge's body limit).
 */
export const WEBHOOK_MAX_BYTES = 256 * 1024;

/**
 * The providers' routes, registered raw (their bodies are read as bytes; no schema reads them
 * first). Answers: 200 `{ received: true, duplicate }`, or 400 `webhook_signature_invalid` (a
 * wrong signature, a timestamp more than 300 s old or ahead), 400 `webhook_event_invalid` (signed,
 * but no object: `data` null or `{}`), 404 `webhook_not_configured`, 503
 * `payment_provider_unavailable` (delivered again), 413, 429.
 */
export const webhooks = {
  /** POST /api/5/webhooks/stripe: a Stripe event, signed (Stripe-Signature). */
  stripeWebhook: { method: "POST", path: "/api/5/webhooks/stripe" },
} as const satisfies Record<string, Route>;
