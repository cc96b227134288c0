// Update card on the account page (issue 34, item 3): a new card saved through the provider, with
// the bank's step where the bank asks for one; the payment method shown is the new card, which
// the renewals charge from then on.
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "./account-helpers.ts";
import { expect, test } from "./api-helpers.ts";
import { futureExpiry, openBankForSavedCard } from "./purchase-helpers.ts";

test.describe.configure({ timeout: 90_000 });

async function typeCard(page: Page, number: string): Promise<void> {
  const form = page.getByRole("form", { name: "Update card" });
  await form.getByLabel("Card number").fill(number);
  await form.getByLabel("Expiry date (MM / YY)").fill(futureExpiry());
  await form.getByLabel("Security code (CVC)").fill("123");
  await form.getByLabel("ZIP or postal code").fill("10001");
  await form.getByRole("button", { name: "Save card" }).click();
}

test("a subscriber replaces the saved card, and the account shows the new one", async ({
  page,
  api,
}) => {
  await api.signUp();
  await api.subscribe("wv_unloct17_1m");
  await page.goto("/cart/home");
  const method = page.getByRole("region", { name: "Payment method" });
  await expect(method.getByTestId("account-payment-method")).toHaveText("Visa ending 4242");
  await method.getByRole("button", { name: "Update card" }).click();
  await expect(page.getByRole("form", { name: "Update card" })).toBeVisible();
  await expectNoAxeViolations(page, "update card, form");

  // A declined card says so and keeps the form.
  await typeCard(page, "4000 0000 0000 0002");
  await expect(page.getByRole("alert")).toContainText(/declined/i);
  await expect(method.getByTestId("account-payment-method")).toHaveText("Visa ending 4242");

  await typeCard(page, "5555 5555 5555 4444");
  await expect(method.getByRole("status")).toHaveText(
    "Your new card is saved: Mastercard ending 4444. Your renewals are charged to it from now on.",
  );
  await expect(method.getByTestId("account-payment-method")).toHaveText("Mastercard ending 4444");
});

test("a card whose bank asks to confirm it is saved after the bank's step", async ({
  page,
  api,
}) => {
  await api.signUp();
  await api.subscribe("wv_unloct17_1m");
  await page.goto("/cart/home");
  await page.getByRole("button", { name: "Update card" }).click();
  await typeCard(page, "4000 0025 0000 3155");
  const bank = await openBankForSavedCard(page);
  await bank.getByRole("button", { name: "Complete" }).click();
  await expect(page.getByTestId("account-payment-method")).toHaveText("Visa ending 3155");
  await expect(
    page.getByRole("status").filter({ hasText: "Your new card is saved" }),
  ).toBeVisible();
});
