// Which payment providers the browser uses (GET /api/5/payment/providers): the server's
// configuration decides, and only its public values leave it (the publishable key, the PayPal
// client id), never a secret. The card follows PAYMENTS because the token the browser makes
// must be one the server's provider can charge: a Stripe token means nothing to the sandbox.
import type { PaymentProviders } from "../../api/contract/index.ts";
import { api } from "../../api/contract/index.ts";
import type { Config } from "../config.ts";
import { json } from "../http/reply.ts";
import type { Routes } from "../routing.ts";

export function paymentProvidersOf(
  config: Pick<Config, "payments" | "stripe" | "paypalClientId">,
): PaymentProviders {
  const card: PaymentProviders["card"] =
    config.payments === "stripe" && config.stripe
      ? { provider: "stripe", publishableKey: config.stripe.publishableKey }
      : { provider: "sandbox" };
  // The server settles PayPal orders only in sandbox mode (routes/paypal.ts answers
  // paypal_unavailable otherwise), so PayPal is offered only there: with a client id through
  // PayPal's buttons, else through the local approval page.
  const paypal: PaymentProviders["paypal"] =
    config.payments !== "sandbox"
      ? { provider: "none" }
      : config.paypalClientId
        ? { provider: "paypal", clientId: config.paypalClientId }
        : { provider: "sandbox" };
  return { card, paypal };
}

export function paymentProviderRoutes(routes: Routes): void {
  routes.api(api.paymentProviders, async (ctx) => json(paymentProvidersOf(ctx.app.config)));
}
