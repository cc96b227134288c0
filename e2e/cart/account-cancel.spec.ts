// Cancellations (issue 10): each behind a confirmation that says what happens and from when, and
// each updating the account shown without a page load. Every test uses an account of its own.
import type { Page } from "@playwright/test";
import { api as contract } from "../../src/contract/index.ts";
import { expectNoAxeViolations } from "./account-helpers.ts";
import { expect, test, uniqueEmail } from "./api-helpers.ts";

/** Marks the page, so a test can tell that what changed did so without a page load. */
async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });
}
async function expectSamePage(page: Page): Promise<void> {
  expect(
    await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
  ).toBe(true);
}

test("a subscriber cancels, told first until when the plan stays", async ({ page, api }) => {
  await api.signUp({ email: uniqueEmail("cancel-sub"), password: "cancel-secret" });
  await api.subscribe("wv_unloct17_1m");
  await page.goto("/cart/home");
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(page.getByTestId("account-status")).toHaveText("Active");
  const renews = (await page.locator("dt:text('Renews on') + dd").innerText()).trim();
  await markPage(page);

  await page.getByRole("button", { name: "Cancel subscription" }).click();
  const confirmation = page.getByRole("region", { name: "Cancel subscription?" });
  await expect(confirmation).toContainText(
    `Your subscription will not renew. You keep your plan until ${renews}; after that your account moves to the free plan.`,
  );
  await expectNoAxeViolations(page, "cancel subscription, confirmation");

  await page.getByRole("button", { name: "Cancel my subscription" }).click();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: `Your subscription is cancelled. You keep your plan until ${renews}.` }),
  ).toBeVisible();
  await expect(page.getByTestId("account-status")).toHaveText(`Cancels on ${renews}`);
  await expect(page.locator("dt:text('Ends on') + dd")).toHaveText(renews);
  await expectSamePage(page);
});

test("keeping the subscription changes nothing", async ({ page, api }) => {
  await api.signUp({ email: uniqueEmail("keep-sub"), password: "keep-secret" });
  await api.subscribe("wv_unloct17_1m");
  await page.goto("/cart/home");
  await page.getByRole("button", { name: "Cancel subscription" }).click();
  await page.getByRole("button", { name: "Keep my subscription" }).click();
  await expect(page.getByRole("button", { name: "Cancel subscription" })).toBeVisible();
  await expect(page.getByTestId("account-status")).toHaveText("Active");
});

test("a subscriber converts to free at once", async ({ page, api }) => {
  await api.signUp({ email: uniqueEmail("to-free"), password: "free-secret" });
  await api.subscribe("wv_unloct17_1m");
  await page.goto("/cart/home");
  await markPage(page);
  await page.getByRole("button", { name: "Switch to the free plan" }).click();
  await expect(page.getByRole("region", { name: "Switch to the free plan?" })).toContainText(
    "Your account moves to the free plan now, not on",
  );
  await page.getByRole("button", { name: "Switch to the free plan now" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Your account is on the free plan." }),
  ).toBeVisible();
  await expect(page.getByTestId("account-plan")).toHaveText("Free");
  await expectSamePage(page);
});

test("a trial is cancelled from the cancel-trial screen, with the keyboard alone", async ({
  page,
  api,
}) => {
  const email = uniqueEmail("cancel-trial");
  await api.signUp({ email, password: "trial-secret" });
  // A trial with activation required must pass the education check first (spec 5).
  await api.activate(email);
  await api.startTrial("unlimited");
  await page.goto("/cart#cancel-trial");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cancel trial");
  const open = page.getByRole("button", { name: "Cancel my trial" });
  for (let i = 0; i < 20 && !(await open.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await expect(open).toBeFocused();
  await page.keyboard.press("Enter");
  const confirmation = page.getByRole("region", { name: "Cancel my trial?" });
  await expect(confirmation).toBeFocused();
  await expect(confirmation).toContainText("Your trial ends now, 14 days early");
  await expectNoAxeViolations(page, "cancel trial, confirmation");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Cancel my trial now" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "Your trial is cancelled. Your account is on the free plan." }),
  ).toBeVisible();
  const context = await api.call(contract.userContext);
  expect(context).toMatchObject({ orderState: "cancelled", isTrial: false });
});
