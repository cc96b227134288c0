// Asking for a reset link (issue 22, item 2): from sign-in's "Forgot password?", from the
// wrong-password message and from the header's "New Password"; the human check runs unseen, the
// answer is the same for known and unknown addresses, and the e-mail lands in /dev/mailbox.
import { expectNoAxeViolations, signInViaApi } from "./account-helpers.ts";
import { expect, latestMail, linkIn, test, uniqueEmail } from "./api-helpers.ts";

const sent = (email: string) =>
  `If an account uses ${email}, we have sent it a link to choose a new password. The link works once, for one hour. Check your inbox and spam folder.`;

test("sign-in's Forgot password? asks for a link, which arrives in the mailbox and works", async ({
  page,
  api,
}) => {
  const email = uniqueEmail("forgot");
  await api.signUp({ email: email, password: "first-password" });
  await page.context().clearCookies();
  await page.goto("/cart/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/cart\/forgot-password$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Forgot your password?");
  await expectNoAxeViolations(page, "reset link request, empty");

  await page.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(page.getByText("Enter the e-mail address of your account.")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page, "reset link request, no address");

  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(page.getByRole("status").filter({ hasText: sent(email) })).toBeVisible();
  await expectNoAxeViolations(page, "reset link request, sent");

  const link = linkIn(await latestMail(page.request, email, /^Reset your password$/));
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reset password");
  await expect(page.getByText(email)).toBeVisible();
});

test("an unknown address gets the same answer, and no e-mail", async ({ page, api }) => {
  const known = uniqueEmail("forgot-known");
  const unknown = uniqueEmail("forgot-unknown");
  await api.signUp({ email: known, password: "first-password" });
  await page.context().clearCookies();
  for (const email of [unknown, known]) {
    await page.goto("/cart/forgot-password");
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Send me a reset link" }).click();
    await expect(page.getByRole("status").filter({ hasText: sent(email) })).toBeVisible();
  }
  // The known address's mail has arrived; the unknown one, asked for first, has none.
  await latestMail(page.request, known, /^Reset your password$/);
  const none = await page.request.get(`/dev/mailbox?format=json&to=${encodeURIComponent(unknown)}`);
  expect(await none.json()).toEqual([]);
});

test("the wrong-password message links to the request screen", async ({ page }) => {
  await page.goto("/cart/login");
  await page.getByLabel("E-mail").fill("free@demo.test");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("or reset your password");
  await expectNoAxeViolations(page, "sign-in, wrong password");
  await alert.getByRole("link", { name: "Reset your password" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Forgot your password?");
});

test("the header's New Password leads a signed-in person there, their address filled in", async ({
  page,
}) => {
  await signInViaApi(page, "trial@demo.test");
  await page.goto("/cart/plans");
  await page.getByRole("banner").getByText("trial", { exact: false }).click();
  await page.getByRole("banner").getByRole("link", { name: "New Password" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Forgot your password?");
  await expect(page.getByLabel("E-mail")).toHaveValue("trial@demo.test");
  await page.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(page.getByRole("status").filter({ hasText: sent("trial@demo.test") })).toBeVisible();
  await latestMail(page.request, "trial@demo.test", /^Reset your password$/);
});
