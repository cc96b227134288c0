// Issue 22, item 4: verifying the e-mail code returns to the trial or purchase it interrupted,
// and an unverified education address is sent to invalid-email only from education purchases.
import { expectNoAxeViolations, signInViaApi } from "./account-helpers.ts";
import { expect, test } from "./api-helpers.ts";

const heading = (page: import("@playwright/test").Page) => page.getByRole("heading", { level: 1 });

// Verifying the code returns to the purchase the step interrupted: account-activation.spec.ts
// (its trial with an unverified e-mail).

test("an unverified education address is sent to invalid-email only from education purchases", async ({
  page,
}) => {
  await signInViaApi(page, "student-teacher@demo-school.edu");
  // A personal Unlimited purchase: not the education rule (the trial's own e-mail step instead).
  await page.goto("/cart?p=buy&product=wv_unloct17_12m&tier=personal#checkout");
  await expect(heading(page)).toHaveText("Activate your account");
  await expect(page).not.toHaveURL(/invalid-email/);
  await expect(page).toHaveURL(/redirect=/);
  // The education trial is an education purchase.
  await page.goto("/cart?p=trial&tier=education#checkout");
  await expect(heading(page)).toHaveText("Check your education email");
  await expect(page).toHaveURL(/\/cart\/invalid-email\?p=trial&tier=education/);
  await expectNoAxeViolations(page, "invalid education e-mail");
  // Its verify link carries the education trial to come back to.
  await expect(page.getByRole("link", { name: "Verify my e-mail address" })).toHaveAttribute(
    "href",
    /#email-activation$/,
  );
  const href = await page
    .getByRole("link", { name: "Verify my e-mail address" })
    .getAttribute("href");
  const back = new URL(href ?? "", "http://x").searchParams.get("redirect");
  expect(back).toBe("/cart?p=trial&tier=education#checkout");
});
