// Provider webhooks (issue 20). Called by the providers, never by the browser, so this entry is
// not part of `api` (nor of the route table the browser loads): the server registers it with its
// raw body, which the signature covers (src/server/routes/webhooks.ts).
import { z } from "zod";
import { endpoint } from "./common.ts";

/** Every provider webhook is under this path (exempt from the same-origin check). */
export const WEBHOOK_PATH_PREFIX = "/api/5/webhooks/";

export const WebhookReceived = z.object({ received: z.literal(true), duplicate: z.boolean() });

export const webhooks = {
  /** POST /api/5/webhooks/stripe: a Stripe event, signed (Stripe-Signature). */
  stripeWebhook: endpoint({
    method: "POST",
    path: "/api/5/webhooks/stripe",
    response: WebhookReceived,
    errors: [
      "webhook_signature_invalid",
      "webhook_not_configured",
      "payment_provider_unavailable",
      "body_too_large",
      "rate_limited",
    ],
  }),
};
