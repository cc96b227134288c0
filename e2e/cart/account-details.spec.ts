// Edit details (issue 10, PUT /api/4/user): a form in the account panel with labels and
// autocomplete; success only when the answer's success is true or 'true'; refusals announced,
// what was typed kept. And the keyboard alone: accept an invitation, then edit the details.
import { api as contract } from "../../src/contract/index.ts";
import { expectNoAxeViolations, tabTo } from "./account-helpers.ts";
import { callTo, expect, test, uniqueEmail } from "./api-helpers.ts";

test("a person edits their details, saved without a page load", async ({ page, api }) => {
  const email = uniqueEmail("details");
  await api.signUp({ email, password: "details-secret" });
  await page.goto("/cart/home");
  await page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });
  await page.getByRole("button", { name: "Edit details" }).click();
  const first = page.getByLabel("First name");
  await expect(first).toBeFocused();
  await expect(first).toHaveValue("Pat");
  await expect(first).toHaveAttribute("autocomplete", "given-name");
  await expect(page.getByLabel("Last name")).toHaveAttribute("autocomplete", "family-name");
  await expect(page.getByLabel("Username")).toHaveAttribute("autocomplete", "username");
  await expect(page.getByLabel("E-mail")).toHaveAttribute("autocomplete", "email");
  await expectNoAxeViolations(page, "edit details, form");

  await first.fill("Kim");
  await page.getByLabel("Username").fill(`kim-${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Save details" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Your details are saved." }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Edit details" })).toBeFocused();
  await expect(page.getByText(/^Kim Tester · kim-/)).toBeVisible();
  expect(
    await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
  ).toBe(true);
  const info = await api.userInfo();
  expect(info).toMatchObject({ firstName: "Kim", email });
});

test("an address already taken is announced, and what was typed stays", async ({ page, api }) => {
  await api.signUp({ email: uniqueEmail("details-taken"), password: "details-secret" });
  await page.goto("/cart/home");
  await page.getByRole("button", { name: "Edit details" }).click();
  await page.getByLabel("First name").fill("Robin");
  await page.getByLabel("E-mail").fill("monthly@demo.test");
  await page.getByLabel("Current password").fill("details-secret");
  await page.getByRole("button", { name: "Save details" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "An account with this e-mail address already exists. Sign in, or reset your password.",
  );
  await expect(page.getByLabel("First name")).toHaveValue("Robin");
  await expect(page.getByLabel("E-mail")).toHaveValue("monthly@demo.test");
  await expectNoAxeViolations(page, "edit details, refused");
});

test("a new e-mail address needs the current password and waits for its code", async ({
  page,
  api,
}) => {
  const old = uniqueEmail("details-move");
  await api.signUp({ email: old, password: "details-secret" });
  const moved = uniqueEmail("details-moved");
  await page.goto("/cart/home");
  await page.getByRole("button", { name: "Edit details" }).click();
  // The password field appears only where the e-mail address changes (issue 18, item 12).
  await expect(page.getByLabel("Current password")).toHaveCount(0);
  await page.getByLabel("E-mail").fill(moved);
  const password = page.getByLabel("Current password");
  await expect(password).toHaveAttribute("autocomplete", "current-password");
  await page.getByRole("button", { name: "Save details" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Enter your current password to change your e-mail address.",
  );
  await password.fill("wrong-secret");
  await page.getByRole("button", { name: "Save details" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Your current password is not correct. Check it and try again, or reset your password.",
  );
  await password.fill("details-secret");
  await page.getByRole("button", { name: "Save details" }).click();
  await expect(
    page.getByRole("status").filter({
      hasText: `Your details are saved. We sent a code to ${moved} to verify the new address: enter the code. Until then your e-mail address stays ${old}.`,
    }),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "enter the code" })).toHaveAttribute(
    "href",
    "/cart#email-activation",
  );
});

test("success counts only when it is true or 'true'", async ({ page, api }) => {
  await api.signUp({ email: uniqueEmail("details-answers"), password: "details-secret" });
  let answer: unknown = { success: false };
  await page.route(callTo(contract.editUser), (route) =>
    route.request().method() === "PUT" ? route.fulfill({ json: answer }) : route.fallback(),
  );
  await page.goto("/cart/home");
  await page.getByRole("button", { name: "Edit details" }).click();
  await page.getByRole("button", { name: "Save details" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Your details were not saved. Please try again.",
  );
  answer = { success: "true" };
  await page.getByRole("button", { name: "Save details" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Your details are saved." }),
  ).toBeVisible();
});

test("with the keyboard alone: accept an invitation, then edit the details", async ({
  page,
  api,
  people,
}) => {
  const { team, code } = await people.team("keyboard");
  await api.signUp({ email: uniqueEmail("keyboard"), password: "keyboard-secret" });
  await page.goto(`/cart/invite/${code}`);
  const join = page.getByRole("button", { name: `Join ${team}` });
  await tabTo(page, join);
  await page.keyboard.press("Enter");
  const joined = page.getByRole("status").filter({ hasText: `You joined ${team}.` });
  await expect(joined).toBeFocused();
  const account = page.getByRole("link", { name: "See your account" });
  await tabTo(page, account);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/cart\/home$/);
  await expect(page.getByTestId("account-team")).toHaveText(`${team} (member)`);

  const edit = page.getByRole("button", { name: "Edit details" });
  await tabTo(page, edit, 40);
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("First name")).toBeFocused();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("Kai");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Last name")).toBeFocused();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("Keys");
  await tabTo(page, page.getByRole("button", { name: "Save details" }));
  await page.keyboard.press("Enter");
  await expect(
    page.getByRole("status").filter({ hasText: "Your details are saved." }),
  ).toBeVisible();
  await expect(edit).toBeFocused();
  await expect(page.getByText(/^Kai Keys · /)).toBeVisible();
});

test("a single sign-on account may change its name, not its address or username", async ({
  page,
  api,
}) => {
  const email = uniqueEmail("details-sso");
  await api.signUp({ email, password: "details-secret" });
  // Our demo accounts have no single sign-on; the user info answer says so as one would.
  await page.route(callTo(contract.userInfo), async (route) => {
    const answer = await route.fetch();
    route.fulfill({
      response: answer,
      json: { ...(await answer.json()), canEditCredentials: false },
    });
  });
  await page.goto("/cart/home");
  await page.getByRole("button", { name: "Edit details" }).click();
  await expect(
    page.getByText(
      "Your organisation's single sign-on manages your e-mail address and username; you can change your name here.",
    ),
  ).toBeVisible();
  await expect(page.getByLabel("E-mail")).not.toBeEditable();
  await expect(page.getByLabel("Username")).not.toBeEditable();
  await expect(page.getByLabel("First name")).toBeEditable();
  await expectNoAxeViolations(page, "edit details, single sign-on");
});
