// Every hub event of spec 4 where it belongs (issue 22, item 11): inside /dev/hub, each control or
// outcome posts its event (the map is src/browser/README.md "Which control sends which event").
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "../axe.ts";
import { signInViaApi } from "./account-helpers.ts";
import { expect, latestMail, test, uniqueEmail } from "./api-helpers.ts";
import { fillCard } from "./purchase-helpers.ts";

function hub(page: Page, cart: string) {
  return page.goto(`/dev/hub?cart=${encodeURIComponent(cart)}`);
}
const named = (page: Page, name: string) => page.locator(`#events li[data-event="${name}"]`);
const frameOf = (page: Page) => page.frameLocator("#cart");

async function expectNoAxeViolationsInFrame(page: Page, state: string): Promise<void> {
  await expectNoAxeViolations(page, state, { include: "#cart" });
}

test("the editor links ask the hub for its dashboard (navigate_to_dashboard)", async ({
  page,
  api,
}) => {
  await api.signUp({ email: uniqueEmail("hub-dash"), password: "hub-secret" });
  await hub(page, "/cart/home");
  const frame = frameOf(page);
  await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Your account");
  await frame.getByRole("link", { name: "The editor" }).click();
  await expect(named(page, "navigate_to_dashboard")).toHaveCount(1);
  // The frame did not load the hub inside itself.
  await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Your account");
});

test("a visitor's Get started on the free plan (clicked_get_started)", async ({ page }) => {
  await hub(page, "/cart#plans");
  const frame = frameOf(page);
  const free = frame.locator('[data-plan="wv_free"]');
  await expect(free.locator(".price")).toHaveText("Free");
  await expectNoAxeViolationsInFrame(page, "plans in the hub, visitor");
  await free.getByRole("link", { name: "Get started" }).click();
  await expect(named(page, "clicked_get_started")).toHaveCount(1);
  await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Sign up");
});

test("the footer's privacy link (clicked_privacy_link)", async ({ page }) => {
  await hub(page, "/cart#plans");
  const frame = frameOf(page);
  const popup = page.waitForEvent("popup");
  await frame.getByRole("link", { name: /Privacy/ }).click();
  await (await popup).close();
  await expect(named(page, "clicked_privacy_link")).toHaveCount(1);
});

test("a subscriber's Back to free on the plans screen (clicked_back_to_free)", async ({ page }) => {
  await signInViaApi(page, "annual@demo.test");
  await hub(page, "/cart#plans");
  const frame = frameOf(page);
  await frame.locator('[data-plan="wv_free"]').getByRole("link", { name: "Back to free" }).click();
  await expect(named(page, "clicked_back_to_free")).toHaveCount(1);
  await expect(frame.getByRole("heading", { level: 2, name: "Your plan" })).toBeVisible();
});

test("Close posts close_checkout_modal in the hub's modal, close_iframe otherwise", async ({
  page,
}) => {
  await signInViaApi(page, "free@demo.test");
  await hub(page, "/cart?modal=true#plans");
  await frameOf(page).getByRole("button", { name: "Close" }).click();
  await expect(named(page, "close_checkout_modal")).toHaveCount(1);
  await expect(named(page, "close_iframe")).toHaveCount(0);

  await hub(page, "/cart#plans");
  await frameOf(page).getByRole("button", { name: "Close" }).click();
  await expect(named(page, "close_iframe")).toHaveCount(1);
  await expect(named(page, "close_checkout_modal")).toHaveCount(0);
});

test("a declined card posts payment_credit_card, then checkout_completed_failure", async ({
  page,
  api,
}) => {
  test.setTimeout(60_000);
  await api.signUp({ email: uniqueEmail("hub-decline"), password: "hub-secret" });
  await hub(page, "/cart?p=buy&product=wv_single_1m#checkout");
  const frame = frameOf(page);
  await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Checkout");
  await fillCard(frame, "4000 0000 0000 0002");
  await frame.getByRole("button", { name: "Pay $9.99" }).click();
  await expect(
    frame.getByRole("alert").filter({ hasText: "Your card was declined." }),
  ).toBeVisible();
  await expect(named(page, "payment_credit_card")).toHaveCount(1);
  await expect(named(page, "checkout_completed_failure")).toContainText('"code":"card_declined"');
  await expect(named(page, "checkout_completed_success")).toHaveCount(0);
});

test("PayPal posts payment_paypal as the payment starts", async ({ page, api }) => {
  await api.signUp({ email: uniqueEmail("hub-paypal"), password: "hub-secret" });
  await hub(page, "/cart?p=buy&product=wv_single_1m#checkout");
  const frame = frameOf(page);
  await frame.getByLabel("PayPal").check();
  await frame.getByRole("button", { name: "Pay $9.99 with PayPal" }).click();
  await expect(named(page, "payment_paypal")).toHaveCount(1);
});

test("verifying the e-mail code posts email_activation", async ({ page, api }) => {
  const email = uniqueEmail("hub-activate");
  await api.signUp({ email: email, password: "hub-secret" });
  const mail = await latestMail(page.request, email, /^Your verification code/);
  await hub(page, "/cart#email-activation");
  const frame = frameOf(page);
  await frame.getByLabel("Verification code").fill(/(\d{6})/.exec(mail.subject)?.[1] ?? "");
  await frame.getByRole("button", { name: "Verify" }).click();
  await expect(named(page, "email_activation")).toHaveCount(1);
});
