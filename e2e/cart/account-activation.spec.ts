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

  const info = await (await page.request.get("/api/2/wevideouser/info/")).json();
  expect(info).toMatchObject({ emailVerified: true, activationRequired: false });
});

test("a trial whose e-mail is not verified is sent to the activation step first", async ({
  page,
  api,
}) => {
  const email = uniqueEmail("trial-verify");
  await api.signUp({ email, password: "trial-secret" });
  await api.activate(email);
  await api.startTrial("unlimited");
  // A new address is unverified until its code is entered (the trial's TrialEmailVerification).
  const moved = uniqueEmail("trial-verify-moved");
  const edited = await page.request.put("/api/4/user", {
    data: { email: moved, firstName: "Pat", lastName: "Tester", username: moved },
  });
  expect(await edited.json()).toEqual({ success: true });

  await page.goto("/cart/plans");
  await expect(page).toHaveURL(/\/cart\?redirect=%2Fcart%2Fplans#email-activation$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Activate your account");
  await page.goto("/cart#cancel-trial");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cancel trial");

  await page.goto("/cart#email-activation");
  const code = codeIn((await api.latestMail(moved, /^Your verification code/)).subject);
  await page.getByLabel("Verification code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(
    page.getByText("Your e-mail address is verified and your account is active."),
  ).toBeVisible();
  await page.getByRole("link", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/cart\/plans$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Plans");
});
