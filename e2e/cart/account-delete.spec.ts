// Deleting the account from the account page (issue 34, item 3; the server side is issue 33's):
// last in what cannot be undone, behind a confirmation of what happens and from when; billing stops
// at every provider first, then the account is gone and the person signed out and told so. When a
// provider cannot be reached (503 billing_not_stopped) the message says so and nothing changes.
import { api as contract } from "../../src/contract/index.ts";
import { API_ERRORS } from "../../src/domain/errors/index.ts";
import { expectNoAxeViolations } from "./account-helpers.ts";
import { callTo, expect, test, uniqueEmail } from "./api-helpers.ts";

test("a paying customer deletes the account: billing stops, the account goes, they are signed out", async ({
  page,
  api,
}) => {
  await api.signUp({ email: uniqueEmail("delete-me"), password: "delete-secret" });
  await api.subscribe("wv_unloct17_12m");
  await page.goto("/cart/home");
  const danger = page.getByRole("region", { name: "What cannot be undone" });
  // Last, after the cancellations.
  await expect(danger.getByRole("button").last()).toHaveText("Delete my account");
  await danger.getByRole("button", { name: "Delete my account" }).click();
  const confirmation = page.getByRole("region", { name: "Delete my account?" });
  await expect(confirmation).toBeFocused();
  await expect(confirmation).toContainText(
    "First your billing stops at every payment provider: nothing more is charged from today, and your plan ends now, not on",
  );
  await expect(confirmation).toContainText(
    "Then your account, its projects and its details are deleted now and you are signed out.",
  );
  await expect(confirmation).toContainText("This cannot be undone.");
  await expectNoAxeViolations(page, "account page, delete the account, confirmation");

  await confirmation.getByRole("button", { name: "Delete my account now" }).click();
  await expect(page.getByRole("heading", { name: "Your account is deleted" })).toBeFocused();
  await expect(page.getByRole("status").filter({ hasText: "deleted" })).toHaveText(
    "Your account is deleted and you are signed out. Your billing has stopped: nothing more will be charged.",
  );
  // Signed out: the header offers signing in, and the session is gone on the server.
  await expect(page.getByRole("region", { name: "Your plan" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
  expect(await api.attempt(contract.userInfo)).toMatchObject({ status: 401 });
  await expectNoAxeViolations(page, "account page, account deleted");
  await page.reload();
  await expect(page.getByRole("region", { name: "Your plan" })).toHaveCount(0);
});

test("when billing cannot be stopped, the message says so and nothing changes", async ({
  page,
  api,
}) => {
  await api.signUp({ email: uniqueEmail("delete-later"), password: "delete-secret" });
  await api.subscribe("wv_unloct17_1m");
  const { status, message } = API_ERRORS.billing_not_stopped;
  await page.route(callTo(contract.deleteUser), (route) =>
    route.fulfill({ status, json: { message, error_code: "billing_not_stopped" } }),
  );
  await page.goto("/cart/home");
  await page.getByRole("button", { name: "Delete my account" }).click();
  const confirmation = page.getByRole("region", { name: "Delete my account?" });
  await confirmation.getByRole("button", { name: "Delete my account now" }).click();
  await expect(confirmation.getByRole("alert")).toHaveText(message);
  // Still signed in, the account and its plan as they were, and the choice still open.
  await expect(page.getByRole("region", { name: "Your plan" })).toBeVisible();
  await expect(confirmation.getByRole("button", { name: "Delete my account now" })).toBeEnabled();
  expect(await api.userInfo()).toMatchObject({ success: true });
  await expectNoAxeViolations(page, "account page, delete refused");
});
