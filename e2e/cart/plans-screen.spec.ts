// The plans screen (issue 22, item 9): a monthly subscriber sees the monthly plans with theirs
// marked, Schools is listed once, and the free plan reads "Free".
import { expect, test } from "@playwright/test";
import { expectNoAxeViolations, signInViaApi } from "./account-helpers.ts";

test("a monthly subscriber sees the monthly view, their plan marked", async ({ page }) => {
  await signInViaApi(page, "monthly@demo.test");
  await page.goto("/cart/plans");
  await expect(page.getByRole("radio", { name: "Monthly" })).toBeChecked();
  const current = page.locator('[data-plan="wv_unloct17_1m"]');
  await expect(current.getByText("Your current plan")).toBeVisible();
  await expect(current.getByText(/per month$/)).toBeVisible();
  await expectNoAxeViolations(page, "plans, monthly subscriber");
  // The period can still be switched, and the choice is kept in the URL.
  await page.getByRole("radio", { name: "Annual" }).check();
  await expect(page).toHaveURL(/mode=annual/);
  await expect(page.locator('[data-plan="wv_unloct17_12m"]')).toBeVisible();
});

test("an annual subscriber and a visitor see the annual view", async ({ page }) => {
  await page.goto("/cart/plans");
  await expect(page.getByRole("radio", { name: "Annual" })).toBeChecked();
});

test("the free plan reads Free, and Schools is listed once", async ({ page }) => {
  await page.goto("/cart/plans");
  const free = page.locator('[data-plan="wv_free"]');
  await expect(free.locator(".price")).toHaveText("Free");
  await expect(page.getByText("$0.00")).toHaveCount(0);
  await page
    .getByRole("navigation", { name: "Plan families" })
    .getByRole("link", { name: "Education" })
    .click();
  await expect(page.getByRole("heading", { level: 2, name: "Teacher" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Schools" })).toHaveCount(1);
  await page.getByRole("radio", { name: "Monthly" }).check();
  await expect(page.getByRole("heading", { level: 2, name: "Schools" })).toHaveCount(1);
});
