// Provider webhooks: POST /api/5/webhooks/stripe (src/contract/webhooks.ts). Called by Stripe,
// not by a browser: no session, no same-origin check (app.ts exempts /api/5/webhooks/), the raw
// body read once (the signature covers its bytes), bounded in size (WEBHOOK_MAX_BYTES) and rate
// (webhookPerIp). What an event does is services/stripe-webhooks.ts'.

import type Stripe from "stripe";
import { WEBHOOK_MAX_BYTES, webhooks } from "../../contract/webhooks.ts";
import { fail, json } from "../http/reply.ts";
import { stripeClient } from "../payments/stripe.ts";
import type { Routes } from "../routing.ts";
import { handleStripeWebhook } from "../services/stripe-webhooks.ts";

export function webhookRoutes(routes: Routes): void {
  let client: Stripe | null = null;
  routes.raw(webhooks.stripeWebhook, async (ctx, { bytes }) => {
    await ctx.limit("webhookPerIp", ctx.ip);
    const stripe = ctx.app.config.payments === "stripe" ? ctx.app.config.stripe : null;
    if (!stripe?.webhookSecret) return fail("webhook_not_configured");
    const raw = bytes(WEBHOOK_MAX_BYTES);
    client ??= stripeClient(stripe.secretKey, stripe.apiUrl);
    const signature = ctx.req.headers["stripe-signature"];
    const answer = await handleStripeWebhook(
      {
        db: ctx.app.db,
        clock: ctx.app.clock,
        log: ctx.app.log,
        stripe: client,
        webhookSecret: stripe.webhookSecret,
        mailer: ctx.app.mailer,
        config: ctx.app.config,
      },
      raw,
      typeof signature === "string" ? signature : undefined,
    );
    if (answer.kind === "bad_signature") {
      ctx.app.log.warn(`stripe webhook refused: ${answer.message}`);
      return fail("webhook_signature_invalid");
    }
    if (answer.kind === "bad_event") {
      ctx.app.log.warn(`stripe webhook refused: ${answer.message}`);
      return fail("webhook_event_invalid");
    }
    if (answer.kind === "retry") return fail("payment_provider_unavailable");
    return json({ received: true as const, duplicate: answer.duplicate });
  });
}
