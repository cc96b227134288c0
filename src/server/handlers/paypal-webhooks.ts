// POST /api/5/webhooks/paypal: PayPal's webhook deliveries (services/paypal-webhooks.ts). Outside
// the browser's contract: PayPal posts its own JSON, which is read as bytes and passed on
// unchanged for verification. 404 on a server without PAYPAL_*.
import { MAX_BODY_BYTES } from "../../contract/common.ts";
import { fail, json } from "../http/reply.ts";
import type { Routes } from "../routing.ts";
import { handlePaypalWebhook } from "../services/paypal-webhooks.ts";

const PAYPAL_WEBHOOK_PATH = "/api/5/webhooks/paypal";

export function paypalWebhookRoutes(routes: Routes): void {
  routes.raw({ method: "POST", path: PAYPAL_WEBHOOK_PATH }, async (ctx, { bytes }) => {
    const { paypal, config } = ctx.app;
    if (!paypal || !config.paypal) return fail("not_found");
    const raw = bytes(MAX_BODY_BYTES).toString("utf8");
    const outcome = await handlePaypalWebhook(
      { ...ctx.app, paypal, webhookId: config.paypal.webhookId },
      raw,
      ctx.req.headers,
    );
    switch (outcome.status) {
      case 200:
        return json({ received: true, applied: outcome.applied });
      case 400:
        return outcome.reason === "not_verified"
          ? fail("webhook_not_verified")
          : fail("invalid_request", "the body is not a PayPal event");
      case 503:
        // Not applied and not claimed: PayPal delivers it again later.
        return fail("webhook_not_applied", outcome.reason);
    }
  });
}
