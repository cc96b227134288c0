// The whole purchase with the keyboard alone: Tab to each control, type, Space and Enter.
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./api-helpers.ts";

/** Presses Tab until the control has focus (as a keyboard user would), failing after 80 steps. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let i = 0; i < 80; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("Tab never reached the control");
}

test("a whole purchase with the keyboard alone", async ({ page, api }) => {
  await api.signUp();
  await page.goto("/cart#plans");
  await tabTo(page, page.getByRole("link", { name: "Choose Unlimited" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout");
  await expect(page.getByTestId("total")).toHaveText("$95.88");

  // The billing ZIP is asked once, in the address; it is the card's too.
  // A US address needs its state (issue 33, item 6): chosen with the keyboard, as the rest.
  await tabTo(page, page.getByRole("combobox", { name: "State", exact: true }));
  await page.keyboard.type("Oregon");
  await expect(page.getByRole("combobox", { name: "State", exact: true })).toHaveValue("OR");
  await tabTo(page, page.getByLabel("ZIP code", { exact: true }));
  await page.keyboard.type("97201");
  await tabTo(page, page.getByLabel("Card number"));
  await page.keyboard.type("4242424242424242");
  await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
  await page.keyboard.press("Tab");
  // One expiry field, formatted as typed.
  await page.keyboard.type(`12${String((new Date().getFullYear() + 2) % 100).padStart(2, "0")}`);
  await expect(page.getByLabel("Expiry date (MM / YY)")).toHaveValue(/^12 \/ \d\d$/);
  await page.keyboard.press("Tab");
  await page.keyboard.type("123");
  await tabTo(page, page.getByRole("button", { name: "Pay $95.88" }));
  await page.keyboard.press("Enter");

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment complete");
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  await expect(page.getByTestId("paid")).toHaveText("$95.88");
});
