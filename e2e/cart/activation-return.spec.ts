// Issue 22, item 4: verifying the e-mail code returns to the trial or purchase it interrupted,
// and an unverified education address is sent to invalid-email only from education purchases.
import { activateViaApi, expectNoAxeViolations, signInViaApi } from "./account-helpers.ts";
import { expect, latestMail, test, uniqueEmail } from "./api-helpers.ts";

const heading = (page: import("@playwright/test").Page) => page.getByRole("heading", { level: 1 });

test("verifying the code returns to the purchase the step interrupted", async ({ page, api }) => {
  const email = uniqueEmail("verify-return");
  await api.signUp({ email: email, password: "verify-secret" });
  await activateViaApi(page, email);
  await api.startTrial("unlimited");
  // A new address is unverified until its code is entered (the trial's TrialEmailVerification).
  const moved = uniqueEmail("verify-return-moved");
  const edited = await page.request.put("/api/4/user", {
    data: { email: moved, firstName: "Pat", lastName: "Tester", username: moved },
  });
  expect(await edited.json()).toEqual({ success: true });

  await page.goto("/cart?p=buy&product=wv_unloct17_12m#checkout");
  await expect(heading(page)).toHaveText("Activate your account");
  const code = /(\d{6})/.exec(
    (await latestMail(page.request, moved, /^Your verification code/)).subject,
  )?.[1];
  await page.getByLabel("Verification code").fill(code ?? "");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(
    page.getByText("Your e-mail address is verified and your account is active."),
  ).toBeVisible();
  await expectNoAxeViolations(page, "activation, verified, with a page to return to");
  await page.getByRole("link", { name: "Continue" }).click();
  await expect(heading(page)).toHaveText("Checkout");
  await expect(page).toHaveURL(/[?&]product=wv_unloct17_12m/);
  await expect(page).toHaveURL(/#checkout$/);
});

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
