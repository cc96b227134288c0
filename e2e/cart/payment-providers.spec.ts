// The payment providers in a real browser, on the built site. Sandbox mode (this run's server)
// loads no provider code at all. Stripe mode runs its own server (PAYMENTS=stripe with test keys)
// and answers Stripe.js's address with a fake of Stripe.js, and Stripe's API with a fake API
// (Stripe cannot be reached here): its card element mounts a frame when the test says so, which
// shows that the card fields' box keeps its place, that no card field is in the page itself,
// section 8's words for a refused card, and a whole purchase with Stripe's token.
import { api as contract } from "../../src/contract/index.ts";
import { CARD_ERROR_MESSAGES } from "../../src/domain/errors/card-errors.ts";
import type { StripeFake } from "../../src/server/payments/testing/stripe-fake.ts";
import { browserApi, callTo, expect, test } from "./api-helpers.ts";
import { FAKE_STRIPE_JS, type StripeMode, startStripeMode } from "./stripe-mode.ts";

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

test.describe("Stripe mode", () => {
  let stripe: StripeMode;
  // The project's fake of Stripe's HTTP API (STRIPE_API_URL), typed by the SDK's own types.
  let stripeApi: StripeFake;
  let server: { port: number };

  test.beforeAll(async () => {
    stripe = await startStripeMode("e2e-stripe-");
    ({ stripeApi, server } = stripe);
  });
  test.afterAll(async () => {
    await stripe?.close();
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
