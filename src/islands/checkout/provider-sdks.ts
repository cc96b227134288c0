// The payment providers' browser code, loaded only on the payment step and only for the provider
// the server names: Stripe.js (from js.stripe.com, as Stripe requires) with our Elements chunk,
// or PayPal's buttons chunk (whose SDK script PayPalScriptProvider adds). In sandbox mode none of
// it loads. The loaders are one object so that tests can put fakes of the SDKs' browser objects
// in their place and count what was loaded (STYLE.md point 8: fakes, not module mocks).
import type { Stripe } from "@stripe/stripe-js";
import type { PaymentProviders } from "../../contract/payment.ts";

export const sdkLoaders = {
  /** Stripe.js for this publishable key; the `pure` entry adds Stripe's script only when called. */
  stripeJs: (publishableKey: string): Promise<Stripe | null> =>
    import("@stripe/stripe-js/pure").then((module) => module.loadStripe(publishableKey)),
  stripeFields: () => import("./StripeCardFields.tsx"),
  paypalButtons: () => import("./PaypalButtons.tsx"),
};

const stripes = new Map<string, Promise<Stripe | null>>();

/** One Stripe object per key and page load (Elements must keep the one it was given); null: Stripe.js could not load. */
export function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = sdkLoaders.stripeJs(publishableKey).catch(() => null);
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

/** Loads Stripe.js again after it failed to load (a network blip, a blocked script). */
export function retryStripe(publishableKey: string): Promise<Stripe | null> {
  stripes.delete(publishableKey);
  return stripeFor(publishableKey);
}

/**
 * Starts the SDKs the server named as soon as it names them, while the person still chooses the
 * period, seats and address: the card fields are then ready when they get there.
 */
export function preloadSdks(providers: PaymentProviders): void {
  if (providers.card.provider === "stripe") {
    void stripeFor(providers.card.publishableKey);
    void sdkLoaders.stripeFields();
  }
  if (providers.paypal.provider === "paypal") void sdkLoaders.paypalButtons();
}

/** Between tests: forget the loaded Stripe objects. */
export function forgetSdks(): void {
  stripes.clear();
}
