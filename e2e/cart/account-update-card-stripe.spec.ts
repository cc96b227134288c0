// Update card in Stripe mode (issue 34, item 3): Stripe Elements' card loads on the account page
// only once Update card is pressed (never with the page, never with the checkout's first load),
// the new card is saved with a SetupIntent through the bank's step when the bank asks, and the
// next renewal charges it. Stripe mode as in payment-providers.spec.ts (stripe-mode.ts).
import { api as contract } from "../../src/contract/index.ts";
import { browserApi, expect, test } from "./api-helpers.ts";
import { FAKE_STRIPE_JS, type StripeMode, startStripeMode } from "./stripe-mode.ts";

const STRIPE_CODE = /StripeCardFields|StripeCardUpdate|\/pure\.|js\.stripe\.com/;

let stripe: StripeMode;
test.beforeAll(async () => {
  // A settable clock, to bring the next renewal (the worker runs when the clock moves).
  stripe = await startStripeMode("e2e-stripe-card-", {
    env: { CLOCK: "settable" },
    renewals: { intervalMs: 0 },
  });
});
test.afterAll(async () => {
  await stripe?.close();
});

test("a subscriber saves a new card with Stripe, through the bank's step, and the renewal charges it", async ({
  page,
  context,
}) => {
  const { origin, stripeApi } = stripe;
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  await page.route("https://js.stripe.com/**", (route) =>
    route.fulfill({ contentType: "text/javascript", body: FAKE_STRIPE_JS }),
  );
  // The bank's step, played as the person completing it (Stripe.js's handleNextAction).
  await page.exposeFunction("__stripeNextAction", (clientSecret: string) =>
    stripeApi.authenticate(clientSecret.split("_secret_")[0] ?? "", "complete"),
  );
  const api = browserApi(context, origin);
  await api.signUp();
  await api.call(contract.paymentToken, {
    body: { token: "pm_card_visa" },
    idempotencyKey: crypto.randomUUID(),
  });
  await api.call(contract.upgrade, {
    body: { product: { code: "wv_unloct17_1m" }, newCart: true },
    idempotencyKey: crypto.randomUUID(),
  });

  await page.goto(`${origin}/cart/home`);
  const method = page.getByRole("region", { name: "Payment method" });
  await expect(method.getByTestId("account-payment-method")).toHaveText("Visa ending 4242");
  // Nothing of Stripe's before the person asks for the card form.
  expect(requested.filter((url) => STRIPE_CODE.test(url))).toEqual([]);

  await method.getByRole("button", { name: "Update card" }).click();
  const form = page.getByRole("form", { name: "Update card" });
  await expect(form).toContainText(
    "Your card is checked and saved by Stripe; nothing is charged now.",
  );
  await expect
    .poll(() => page.evaluate(() => (window as { __stripeKey?: string }).__stripeKey))
    .toBe("pk_test_e2eonly");
  const save = form.getByRole("button", { name: "Save card" });
  await expect(save).toBeDisabled();
  await page.evaluate(() => {
    const w = window as { __mountStripe?: () => void; __stripeCard?: string };
    // Stripe's test card 4000 0025 0000 3155: the bank asks to confirm it when it is saved.
    w.__stripeCard = "pm_card_authenticationRequiredOnSetup";
    w.__mountStripe?.();
  });
  await expect(form.getByTitle("Secure card payment input frame")).toBeVisible();
  // PCI SAQ A: no card field in the page itself.
  await expect(form.locator("input, select, textarea")).toHaveCount(0);
  await save.click();
  await expect(method.getByRole("status").filter({ hasText: "Your new card is saved" })).toHaveText(
    "Your new card is saved: Visa ending 3155. Your renewals are charged to it from now on.",
  );
  await expect(method.getByTestId("account-payment-method")).toHaveText("Visa ending 3155");
  const setups = stripeApi.requests.filter(
    (r) => r.method === "POST" && r.path === "/v1/setup_intents",
  );
  expect(setups.at(-1)?.params).toMatchObject({
    payment_method: "pm_card_authenticationRequiredOnSetup",
    usage: "off_session",
  });

  // The next renewal charges the new card, off-session.
  const charges = () =>
    stripeApi.requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents");
  const before = charges().length;
  const moved = await page.request.post(`${origin}/dev/clock`, {
    data: { advanceMs: 32 * 24 * 60 * 60 * 1000 },
  });
  expect(moved.ok()).toBe(true);
  await expect.poll(() => charges().length).toBeGreaterThan(before);
  expect(charges()[before]?.params).toMatchObject({
    payment_method: "pm_card_authenticationRequiredOnSetup",
    off_session: "true",
  });
});
