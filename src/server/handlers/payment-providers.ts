// Which payment providers the browser uses (GET /api/5/payment/providers): the server's
// configuration decides, and only its public values leave it (the publishable key, the PayPal
// client id), never a secret. The card follows PAYMENTS because the token the browser makes
// must be one the server's provider can charge: a Stripe token means nothing to the sandbox.
import type { PaymentProviders } from "../../contract/index.ts";
import { api } from "../../contract/index.ts";
import type { Config } from "../config.ts";
import { json } from "../http/reply.ts";
import type { Routes } from "../routing.ts";

export function paymentProvidersOf(
  config: Pick<Config, "payments" | "stripe" | "paypal">,
): PaymentProviders {
  const card: PaymentProviders["card"] =
    config.payments === "stripe" && config.stripe
      ? { provider: "stripe", publishableKey: config.stripe.publishableKey }
      : { provider: "sandbox" };
  // With PAYPAL_* set the server verifies every subscription at PayPal (handlers/paypal.ts), in
  // any mode, beside Stripe or the sandbox's card; without them only a local run's sandbox has
  // PayPal (its approval stand-in), and a deployment offers none.
  const paypal: PaymentProviders["paypal"] = config.paypal
    ? { provider: "paypal", clientId: config.paypal.clientId }
    : config.payments === "sandbox"
      ? { provider: "sandbox" }
      : { provider: "none" };
  return { card, paypal };
}

export function paymentProviderRoutes(routes: Routes): void {
  routes.api(api.paymentProviders, async (ctx) => json(paymentProvidersOf(ctx.app.config)));
}
