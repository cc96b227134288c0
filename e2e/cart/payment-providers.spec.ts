// The payment providers in a real browser, on the built site. Sandbox mode (this run's server)
// loads no provider code at all. Stripe mode runs its own server (PAYMENTS=stripe with test keys)
// and answers Stripe.js's address with a fake of Stripe.js, and Stripe's API with a fake API
// (Stripe cannot be reached here): its card element mounts a frame when the test says so, which
// shows that the card fields' box keeps its place, that no card field is in the page itself,
// section 8's words for a refused card, and a whole purchase with Stripe's token.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api as contract } from "../../src/contract/index.ts";
import { CARD_ERROR_MESSAGES } from "../../src/domain/errors/card-errors.ts";
import { type RunningServer, startServer } from "../../src/server/main.ts";
import { StripeFake } from "../../src/server/payments/testing/stripe-fake.ts";
import { createStaticHandler } from "../../src/server/static-files.ts";
import { browserApi, callTo, expect, test } from "./api-helpers.ts";

const CHECKOUT = "/cart?product=wv_single_12m#checkout";
const PROVIDER_CODE = /StripeCardFields|PaypalButtons|\/pure\.|js\.stripe\.com|paypal\.com/;

test("sandbox mode: the checkout loads no provider's code", async ({ page, api }) => {
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  await api.signIn("free@demo.test");
  await page.goto(CHECKOUT);
  await expect(page.getByLabel("Card number")).toBeVisible();
  await page.getByRole("radio", { name: "PayPal" }).check();
  await expect(page.getByRole("button", { name: "Pay $59.88 with PayPal" })).toBeVisible();
  expect(requested.filter((url) => PROVIDER_CODE.test(url))).toEqual([]);
  expect(requested.some(callTo(contract.paymentProviders))).toBe(true);
});

/**
 * A stand-in for https://js.stripe.com/…/stripe.js: `Stripe(key)` with elements() whose card
 * element mounts an iframe of Stripe's height (one 16px line) once `__mountStripe()` is called,
 * and createPaymentMethod answering the refusal the test names in `__stripeRefusal`, or Stripe's
 * test PaymentMethod. It has every method @stripe/react-stripe-js checks before it accepts a
 * Stripe object (elements, createToken, createPaymentMethod, confirmCardPayment): without one,
 * <Elements> throws "Invalid prop `stripe`" and the card element never mounts.
 */
const FAKE_STRIPE_JS = `
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
          : { paymentMethod: { id: "pm_card_visa" } },
      // Not called by the checkout; present because react-stripe-js checks for them.
      createToken: async () => ({ error: { type: "invalid_request_error" } }),
      confirmCardPayment: async () => ({}),
      handleNextAction: async () => ({}),
    };
  };
  // The release train @stripe/stripe-js expects (a test key with another one logs a warning).
  window.Stripe.version = "endive";
})();`;

test.describe("Stripe mode", () => {
  let server: RunningServer;
  // The project's fake of Stripe's HTTP API (STRIPE_API_URL), typed by the SDK's own types.
  const stripeApi = new StripeFake();
  let dataDir: string;

  test.beforeAll(async () => {
    await stripeApi.start();
    dataDir = mkdtempSync(join(tmpdir(), "e2e-stripe-"));
    server = await startServer({
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
      },
      log: { info() {}, warn() {}, error: (message) => console.error(message) },
    });
  });
  test.afterAll(async () => {
    await server?.close();
    await stripeApi.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("the card fields are Stripe's frame and keep their place; a refused card gets section 8's words, an accepted one pays with Stripe's token", async ({
    page,
    context,
  }) => {
    const origin = `http://127.0.0.1:${server.port}`;
    await page.route("https://js.stripe.com/**", (route) =>
      route.fulfill({ contentType: "text/javascript", body: FAKE_STRIPE_JS }),
    );
    // Demo accounts exist only in sandbox mode: a new account, through this server's API.
    await browserApi(context, origin).signUp();
    await page.goto(`${origin}${CHECKOUT}`);

    await expect(page.getByText(/Payments are processed by Stripe/)).toBeVisible();
    const pay = page.getByRole("button", { name: "Pay $59.88" });
    await expect(pay).toBeDisabled();
    // The server offers no PayPal in Stripe mode.
    await expect(page.getByRole("radio", { name: "PayPal" })).toHaveCount(0);
    await expect
      .poll(() => page.evaluate(() => (window as { __stripeKey?: string }).__stripeKey))
      .toBe("pk_test_e2eonly");

    const before = await pay.boundingBox();
    await page.evaluate(() => (window as { __mountStripe?: () => void }).__mountStripe?.());
    await expect(page.getByTitle("Secure card payment input frame")).toBeVisible();
    await expect(pay).toBeEnabled();
    // No layout shift when the card fields mount: what follows them has not moved.
    expect(await pay.boundingBox()).toEqual(before);
    // PCI SAQ A: the page itself has no card field. The payment form's only inputs are the
    // method choices (the address and coupon forms beside it hold no card data).
    const payment = page.getByRole("form", { name: "Payment" });
    await expect(payment.locator("input:not([type=radio]), select, textarea")).toHaveCount(0);
    await expect(page.locator('[autocomplete^="cc-"], [name*="card" i]')).toHaveCount(0);

    await page.evaluate(() => {
      (window as { __stripeRefusal?: string }).__stripeRefusal = "incorrect_cvc";
    });
    await pay.click();
    await expect(page.getByRole("alert")).toHaveText(CARD_ERROR_MESSAGES.incorrect_cvc);
    await expect(pay).toBeEnabled();
    expect(stripeApi.requests).toEqual([]);

    // Another try with a card Stripe accepts: only Stripe's PaymentMethod id reaches our server,
    // which saves it for off-session use (a SetupIntent) and pays the total shown with a
    // PaymentIntent.
    await page.evaluate(() => {
      (window as { __stripeRefusal?: string }).__stripeRefusal = "";
    });
    await pay.click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment complete");
    const posted = (path: string) =>
      stripeApi.requests.find((r) => r.method === "POST" && r.path === path)?.params;
    expect(posted("/v1/setup_intents")).toMatchObject({
      payment_method: "pm_card_visa",
      usage: "off_session",
    });
    expect(posted("/v1/payment_intents")).toMatchObject({ amount: "5988", currency: "usd" });
  });
});
