// Stripe mode in the browser tests: a server of its own (PAYMENTS=stripe with test keys) against
// the project's fake of Stripe's API, and a stand-in for Stripe.js that the page gets instead of
// https://js.stripe.com (Stripe cannot be reached here). Used by payment-providers.spec.ts and
// account-update-card-stripe.spec.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../../src/server/main.ts";
import { StripeFake } from "../../src/server/payments/testing/stripe-fake.ts";
import { createStaticHandler } from "../../src/server/static-files.ts";

/**
 * A stand-in for https://js.stripe.com/…/stripe.js: `Stripe(key)` with elements() whose card
 * element mounts an iframe of Stripe's height (one 16px line) once `__mountStripe()` is called,
 * and createPaymentMethod answering the refusal the test names in `__stripeRefusal`, or Stripe's
 * test PaymentMethod (`__stripeCard` names another of Stripe's test PaymentMethods). It has every method @stripe/react-stripe-js checks before it accepts a
 * Stripe object (elements, createToken, createPaymentMethod, confirmCardPayment): without one,
 * <Elements> throws "Invalid prop `stripe`" and the card element never mounts.
 */
export const FAKE_STRIPE_JS = `
(() => {
  let release;
  const mountAllowed = new Promise((resolve) => { release = resolve; });
  window.__mountStripe = () => release();
  window.Stripe = function Stripe(key) {
    window.__stripeKey = key;
    const listeners = {};
    const card = {
      mount(node) {
        mountAllowed.then(() => {
          const frame = document.createElement("iframe");
          frame.title = "Secure card payment input frame";
          frame.style.cssText = "border:0;display:block;width:100%;height:19.2px";
          frame.srcdoc = '<input name="cardnumber" placeholder="Card number">';
          node.append(frame);
          for (const listener of listeners.ready || []) listener({ elementType: "card" });
        });
      },
      on(event, listener) { (listeners[event] ||= []).push(listener); return card; },
      off(event, listener) {
        listeners[event] = (listeners[event] || []).filter((l) => l !== listener);
        return card;
      },
      update() {},
      destroy() {},
    };
    let created = false;
    const elements = {
      create() { created = true; return card; },
      getElement() { return created ? card : null; },
      update() {},
    };
    return {
      elements: () => elements,
      // Stripe.js makes a PaymentMethod of the card element (Stripe's test pm_card_visa), or
      // refuses the card itself, as Stripe.js does for a wrong CVC before any request of ours.
      createPaymentMethod: async () =>
        window.__stripeRefusal
          ? { error: { type: "card_error", code: window.__stripeRefusal } }
          : { paymentMethod: { id: window.__stripeCard || "pm_card_visa" } },
      // Not called by the checkout; present because react-stripe-js checks for them.
      createToken: async () => ({ error: { type: "invalid_request_error" } }),
      confirmCardPayment: async () => ({}),
      // The bank's step: the test plays it (window.__stripeNextAction, when it set one).
      handleNextAction: async ({ clientSecret }) => {
        await window.__stripeNextAction?.(clientSecret);
        return {};
      },
    };
  };
  // The release train @stripe/stripe-js expects (a test key with another one logs a warning).
  window.Stripe.version = "endive";
})();`;

export type StripeMode = {
  server: RunningServer;
  /** The project's fake of Stripe's HTTP API (STRIPE_API_URL), typed by the SDK's own types. */
  stripeApi: StripeFake;
  origin: string;
  close(): Promise<void>;
};

/** A server of the built site in Stripe mode, on a data folder of its own. */
export async function startStripeMode(
  prefix: string,
  extra: { env?: Record<string, string>; renewals?: { intervalMs: number } } = {},
): Promise<StripeMode> {
  const stripeApi = new StripeFake();
  await stripeApi.start();
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const server = await startServer({
    port: 0,
    host: "127.0.0.1",
    staticHandler: createStaticHandler(join(process.cwd(), "dist")),
    env: {
      DATA_DIR: dataDir,
      PAYMENTS: "stripe",
      STRIPE_SECRET_KEY: "sk_test_e2eonly",
      STRIPE_PUBLISHABLE_KEY: "pk_test_e2eonly",
      STRIPE_API_URL: stripeApi.url,
      RENEWAL_INTERVAL_SECONDS: "0",
      ...extra.env,
    },
    ...(extra.renewals ? { renewals: extra.renewals } : {}),
    log: { info() {}, warn() {}, error: (message) => console.error(message) },
  });
  return {
    server,
    stripeApi,
    origin: `http://127.0.0.1:${server.port}`,
    async close() {
      await server.close();
      await stripeApi.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
