// Reset password (spec 2.7, 4, 5, 8; issue 10): ask for a link, read it in the sandbox mailbox,
// follow it, choose a new password, then sign in with it.
import type { Page } from "@playwright/test";
import { api as contract } from "../../src/contract/index.ts";
import { forgotAnswer } from "../../src/server/testing/human-answer.ts";
import { expectNoAxeViolations } from "./account-helpers.ts";
import { type BrowserApi, callTo, expect, linkIn, test, uniqueEmail } from "./api-helpers.ts";

const PROBLEM =
  "There was a problem sending your new password. Please try again. If the problem persists, please contact the provider's support.";

/** A new account that has asked for a reset link, signed out; returns its e-mail and the link. */
async function askForResetLink(
  page: Page,
  api: BrowserApi,
): Promise<{ email: string; link: string }> {
  const email = uniqueEmail("reset");
  await api.signUp({ email, password: "first-password" });
  await page.context().clearCookies();
  await api.call(contract.forgotPassword, {
    body: { email, recaptchaResponse: await forgotAnswer(email) },
  });
  const link = linkIn(await api.latestMail(email, /^Reset your password$/));
  expect(link).toMatch(/^\/cart\/new-password\?vc=.+&email=/);
  return { email, link };
}

test("a person resets a forgotten password from the e-mail's link and signs in with it", async ({
  page,
  api,
}) => {
  const { email, link } = await askForResetLink(page, api);
  // The page's clock, so the countdown to sign-in is stepped through rather than waited out.
  await page.clock.install();
  await page.goto(link);

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reset password");
  await expect(page.getByText("Create a new password for your account")).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole("link", { name: "Not you?" })).toHaveAttribute("href", "/cart/login");

  const submit = page.getByRole("button", { name: "Change my password" });
  const password = page.getByLabel("New password");
  const confirm = page.getByLabel("Confirm password");
  await expect(submit).toBeDisabled();

  await password.fill("abc");
  await expect(
    page.getByText("Short passwords are easy to guess. Try one with at least 6 characters."),
  ).toBeVisible();
  await password.fill("");
  await expect(page.getByText("You can't leave this empty.")).toBeVisible();

  await password.fill("brand-new-secret");
  await confirm.fill("brand-new-secrex");
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await expect(submit).toBeDisabled();

  await confirm.fill("brand-new-secret");
  await expect(page.getByText("OK", { exact: true })).toBeVisible();
  await expect(submit).toBeEnabled();
  await expectNoAxeViolations(page, "reset password, valid pair");

  await submit.click();
  await expect(
    page.getByText("Success! You will be redirected to login page in 5 seconds"),
  ).toBeVisible();
  await page.clock.runFor(1000);
  await expect(
    page.getByText("Success! You will be redirected to login page in 4 seconds"),
  ).toBeVisible();
  await expectNoAxeViolations(page, "reset password, success");
  await page.clock.runFor(4000);
  await expect(page).toHaveURL(/\/cart\/login$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");

  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("brand-new-secret");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/cart\/plans/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Plans");
});

test("a used link says it has expired, and the button then reads RESET", async ({ page, api }) => {
  const { link } = await askForResetLink(page, api);
  // The link is used once (by another tab, say) …
  await page.goto(link);
  await page.getByLabel("New password").fill("first-new-secret");
  await page.getByLabel("Confirm password").fill("first-new-secret");
  await page.getByRole("button", { name: "Change my password" }).click();
  await expect(page.getByText(/^Success! You will be redirected/)).toBeVisible();

  // … and opened again.
  await page.goto(link);
  await page.getByLabel("New password").fill("second-new-secret");
  await page.getByLabel("Confirm password").fill("second-new-secret");
  await page.getByRole("button", { name: "Change my password" }).click();
  await expect(page.getByRole("alert")).toHaveText("This link has expired.");
  await expect(page.getByRole("button", { name: "RESET" })).toBeEnabled();
  await expectNoAxeViolations(page, "reset password, expired link");
});

test("a failed call shows the problem message", async ({ page, api }) => {
  const { link } = await askForResetLink(page, api);
  await page.route(callTo(contract.changePassword), (route) => route.abort("failed"));
  await page.goto(link);
  await page.getByLabel("New password").fill("brand-new-secret");
  await page.getByLabel("Confirm password").fill("brand-new-secret");
  await page.getByRole("button", { name: "Change my password" }).click();
  await expect(page.getByRole("alert")).toHaveText(PROBLEM);
  await expect(page.getByRole("button", { name: "RESET" })).toBeVisible();
});

test("a campaign user's reset, done with the keyboard alone", async ({ page, api }) => {
  const { link } = await askForResetLink(page, api);
  await page.clock.install();
  await page.goto(`${link}#campaign`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reset password");
  const password = page.getByLabel("New password");
  // From the top of the page, Tab reaches the field (past the header's links and 'Not you?').
  for (
    let i = 0;
    i < 20 && !(await password.evaluate((el) => el === document.activeElement));
    i++
  ) {
    await page.keyboard.press("Tab");
  }
  await expect(password).toBeFocused();
  await page.keyboard.type("campaign-secret");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Confirm password")).toBeFocused();
  await page.keyboard.type("campaign-secret");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Success! Your password has been changed")).toBeVisible();
  // No countdown for a campaign user: the page stays, also well past the 5 seconds after which
  // anyone else is sent to sign in (the page's clock run on, not waited out).
  await expect(page.getByText(/redirected to login page/)).toHaveCount(0);
  await page.clock.runFor(10_000);
  await expect(page).toHaveURL(/\/cart\/new-password/);
  await expect(page.getByText("Success! Your password has been changed")).toBeVisible();
});
