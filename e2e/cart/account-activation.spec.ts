// E-mail activation (spec 2.1, 4, 5, 7; issue 10): a new account gets a code in the outbox; a
// wrong code is refused; a new code can be asked for; the right one verifies the address and
// activates the account (activationRequired cleared).
import { expectNoAxeViolations } from "./account-helpers.ts";
import { expect, test, uniqueEmail } from "./api-helpers.ts";

function codeIn(subject: string): string {
  return /(\d{6})/.exec(subject)?.[1] ?? "";
}

test("a new account verifies its e-mail with the code from the outbox", async ({ page, api }) => {
  const email = uniqueEmail("activate");
  await api.signUp({ email, password: "activation-secret" });
  const first = codeIn((await api.latestMail(email, /^Your verification code/)).subject);

  await page.goto("/cart#email-activation");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Activate your account");
  await expect(page.getByText(`We sent a 6-digit code to ${email}.`)).toBeVisible();

  const wrong = first === "000000" ? "111111" : "000000";
  await page.getByLabel("Verification code").fill(wrong);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "This code is not valid or has expired. Ask for a new code and try again.",
  );
  await expectNoAxeViolations(page, "activation, wrong code");

  await page.getByRole("button", { name: "Send me a new code" }).click();
  await expect(page.getByText(`We sent a new code to ${email}.`)).toBeVisible();
  let second = first;
  await expect
    .poll(async () => {
      second = codeIn((await api.latestMail(email, /^Your verification code/)).subject);
      return second !== first;
    })
    .toBe(true);

  await page.getByLabel("Verification code").fill(second);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(
    page.getByText("Your e-mail address is verified and your account is active."),
  ).toBeVisible();
  await expectNoAxeViolations(page, "activation, verified");

  const info = await api.userInfo();
  expect(info).toMatchObject({ emailVerified: true, activationRequired: false });
});

test("a trial whose e-mail is not verified is sent to the activation step first, and returns to what it interrupted", async ({
  page,
  api,
}) => {
  // Trials start for a verified address only now (issue 18 item 6), and a new address waits for
  // its code before it replaces the verified one (item 12): this state is an account whose trial
  // began before, as the demo account's did (the trial's TrialEmailVerification, spec 4).
  const email = "unverified@demo.test";
  const heading = page.getByRole("heading", { level: 1 });
  await api.signIn(email);
  await page.goto("/cart/plans");
  await expect(page).toHaveURL(/\/cart\?redirect=%2Fcart%2Fplans#email-activation$/);
  await expect(heading).toHaveText("Activate your account");
  await page.goto("/cart#cancel-trial");
  await expect(heading).toHaveText("Cancel trial");

  // A purchase is interrupted the same way, and verifying returns to it (issue 22 item 4).
  await page.goto("/cart?p=buy&product=wv_unloct17_12m#checkout");
  await expect(heading).toHaveText("Activate your account");
  await page.getByRole("button", { name: "Send me a new code" }).click();
  await expect(page.getByText(`We sent a new code to ${email}.`)).toBeVisible();
  const code = codeIn((await api.latestMail(email, /^Your verification code/)).subject);
  await page.getByLabel("Verification code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(
    page.getByText("Your e-mail address is verified and your account is active."),
  ).toBeVisible();
  await expectNoAxeViolations(page, "activation, verified, with a page to return to");
  await page.getByRole("link", { name: "Continue" }).click();
  await expect(heading).toHaveText("Checkout");
  await expect(page).toHaveURL(/[?&]product=wv_unloct17_12m/);
  await expect(page).toHaveURL(/#checkout$/);
});
