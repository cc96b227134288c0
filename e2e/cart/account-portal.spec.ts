// The account page as a customer portal (issue 34, item 3): titled "Your account", the plan as a
// card with a status badge in the account's own words (a member's team plan, the free plan after
// a switch, an App Store plan), a team owner's seats with Add seats, and what cannot be undone
// apart from the rest. Read-only checks of a seeded demo account use it as it was seeded.
import { api as contract } from "../../src/contract/index.ts";
import { expectNoAxeViolations } from "./account-helpers.ts";
import { expect, test, uniqueEmail } from "./api-helpers.ts";

test("a team member reads whose plan they are on, not 'Status free'", async ({ people }) => {
  const { team, code } = await people.team("portal-team");
  const { page } = await people.member(code, "portal-member");
  await page.goto("/cart/home");
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  const plan = page.getByRole("region", { name: "Your plan" });
  await expect(plan.getByTestId("account-status")).toHaveText(`Member of ${team}'s Business plan`);
  await expect(plan).not.toContainText(/free/i);
  // The team's plan is changed by its owner: no Change plan here.
  await expect(plan.getByRole("link", { name: "Change plan" })).toHaveCount(0);
  await expectNoAxeViolations(page, "account page, team member");
});

test("after switching to free the plan reads Free and Active, not cancelled", async ({
  page,
  api,
}) => {
  await api.signUp({ email: uniqueEmail("portal-free"), password: "portal-secret" });
  await api.subscribe("wv_unloct17_1m");
  await api.call(contract.disbandInstance, {
    body: { reason: "test", forgetMe: false, deleteOwner: false, deleteMembers: false },
  });
  await page.goto("/cart/home");
  const plan = page.getByRole("region", { name: "Your plan" });
  await expect(plan.getByTestId("account-plan")).toHaveText("Free");
  await expect(plan.getByTestId("account-status")).toHaveText("Active");
  await expect(plan).not.toContainText(/cancel/i);
  await expect(plan.getByRole("link", { name: "Change plan" })).toHaveAttribute(
    "href",
    /\/cart\/plans$/,
  );
});

test("an App Store plan says where it is managed, never 'renews automatically'", async ({
  page,
  api,
}) => {
  await api.signIn("mobile@demo.test");
  await page.goto("/cart/home");
  const plan = page.getByRole("region", { name: "Your plan" });
  await expect(plan.getByTestId("account-status")).toHaveText("Managed in the App Store");
  await expect(plan).toContainText(
    "Change or cancel this plan in the App Store, where it is billed.",
  );
  await expect(plan).not.toContainText(/renews automatically/i);
  await expect(plan.getByRole("link", { name: "Change plan" })).toHaveCount(0);
  await expectNoAxeViolations(page, "account page, App Store plan");
});

test("a team owner sees the seats used of those paid, and Add seats leads to the seats screen", async ({
  people,
}) => {
  const {
    owner: { page },
  } = await people.team("portal-owner");
  await page.goto("/cart/home");
  const team = page.getByRole("region", { name: "Your team" });
  await expect(team.getByTestId("account-seats")).toHaveText("1 of 3 seats used");
  await expect(
    page.getByRole("region", { name: "Your plan" }).getByTestId("account-status"),
  ).toHaveText("Active");
  // What cannot be undone sits apart, after the documents.
  const danger = page.getByRole("region", { name: "What cannot be undone" });
  await expect(
    danger.getByRole("button", { name: "Close the team and switch to the free plan" }),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: "Your plan" }).getByRole("button")).toHaveCount(0);
  await expectNoAxeViolations(page, "account page, team owner");

  // The invite link, the same one each time it is asked for, opens the team's invitation.
  await team.getByRole("button", { name: "Show the invite link" }).click();
  const link = team.getByTestId("invite-link").getByRole("link");
  await expect(link).toHaveAttribute("href", /^\/cart\/invite\/[A-Za-z0-9_-]+$/);
  await expectNoAxeViolations(page, "account page, team owner, invite link");

  await team.getByRole("link", { name: "Add seats" }).click();
  await expect(page).toHaveURL(/\/cart\/?#additional-seats$/);
  await expect(page.getByTestId("seat-usage")).toHaveText("Your team uses 1 of its 3 seats.");
});

test("the payment method: the saved card by brand and last four, or PayPal", async ({
  page,
  api,
}) => {
  await api.signUp({ email: uniqueEmail("portal-card"), password: "portal-secret" });
  await api.subscribe("wv_unloct17_1m");
  await page.goto("/cart/home");
  await expect(
    page.getByRole("region", { name: "Payment method" }).getByTestId("account-payment-method"),
  ).toHaveText("Visa ending 4242");
  await api.signIn("annual@demo.test");
  await page.goto("/cart/home");
  await expect(page.getByTestId("account-payment-method")).toHaveText("PayPal");
});

test("the account page does not scroll sideways in a 320 px window", async ({ page, api }) => {
  await api.signUp({ email: uniqueEmail("portal-narrow"), password: "portal-secret" });
  await api.subscribe("wv_unloct17_12m");
  // A real 320 px window (no device emulation, which would widen the layout to fit).
  await page.setViewportSize({ width: 320, height: 700 });
  await page.goto("/cart/home");
  await expect(page.getByTestId("invoice-row").first()).toBeVisible();
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  // An invoice number stays on one line.
  const number = page.locator(".invoice-number").first();
  const box = await number.evaluate((el) => el.getClientRects().length);
  expect(box).toBe(1);
});
