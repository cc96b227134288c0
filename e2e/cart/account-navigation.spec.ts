// Finding your way (issue 22, items 1 and 3): a signed-in person reaches their account from the
// header on every screen, the account names the plan in words with the next renewal, and a hash
// router's link (the query inside the hash) opens its screen.
import { expect, test } from "@playwright/test";
import { expectNoAxeViolations, signInViaApi } from "./account-helpers.ts";

test("the header leads a signed-in person to their account from every screen", async ({ page }) => {
  await signInViaApi(page, "annual@demo.test");
  for (const start of [
    "/cart/plans",
    "/cart?p=buy&product=wv_unloct17_12m#checkout",
    "/cart#essentials",
  ]) {
    await page.goto(start);
    const header = page.getByRole("banner");
    // The account's links are in the header's account menu, under the person's name (issue 34).
    await header.getByText("annual", { exact: false }).click();
    await expect(header.getByRole("link", { name: "Your account" })).toBeVisible();
    await header.getByRole("link", { name: "Your account" }).click();
    await expect(page).toHaveURL(/\/cart\/home$/);
    await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  }
  // From the menu's Plans back to the plans, and the account again.
  await page.getByRole("banner").getByText("annual", { exact: false }).click();
  await page.getByRole("banner").getByRole("link", { name: "Plans" }).click();
  await expect(page).toHaveURL(/\/cart\/plans$/);
  await page.getByRole("banner").getByText("annual", { exact: false }).click();
  await page.getByRole("banner").getByRole("link", { name: "Your account" }).click();
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
});

test("the account names the plan in words, with the next renewal's date and amount", async ({
  page,
}) => {
  await signInViaApi(page, "monthly@demo.test");
  await page.goto("/cart/home");
  await expect(page.getByTestId("account-plan")).toHaveText("Unlimited, billed monthly");
  await expect(page.getByText(/wv_/)).toHaveCount(0);
  await expect(page.getByTestId("account-renews-on")).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
  // One amount that says whether tax is in it (issue 33, item 9).
  await expect(page.getByTestId("account-renewal-amount")).toHaveText(
    /^\$\d+\.\d{2} every month \((no tax|tax included)\)$/,
  );
  await expectNoAxeViolations(page, "account page, monthly subscriber");
});

test("a free account reads Free", async ({ page }) => {
  await signInViaApi(page, "free@demo.test");
  await page.goto("/cart/home");
  await expect(page.getByTestId("account-plan")).toHaveText("Free");
  await expect(page.getByTestId("account-renews-on")).toHaveCount(0);
});

test("a link with the query inside the hash opens its screen for a signed-in person", async ({
  page,
}) => {
  await signInViaApi(page, "free@demo.test");
  await page.goto("/cart#checkout?p=buy&product=wv_single_12m");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout");
  await expect(page.getByText("Page not found")).toHaveCount(0);
  await expect(page).toHaveURL(/\/cart\?p=buy&product=wv_single_12m#checkout$/);
  await expect(page.getByText("Power", { exact: false }).first()).toBeVisible();
});

test("a query in the search wins over the same key inside the hash", async ({ page }) => {
  await signInViaApi(page, "free@demo.test");
  await page.goto("/cart?product=wv_unloct17_12m#checkout?p=buy&product=wv_single_12m");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout");
  await expect(page).toHaveURL(/\/cart\?product=wv_unloct17_12m&p=buy#checkout$/);
});
