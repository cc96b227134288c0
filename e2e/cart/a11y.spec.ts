// axe-core finds no violation on any screen of the checkout, for a visitor and a signed-in user.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import {
  HASH_SCREENS,
  hrefFor,
  PATH_SCREENS,
  requiresLogin,
} from "../../src/domain/checkout/routes.ts";

async function expectNoViolations(page: Page, state: string): Promise<void> {
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`,
  );
  expect(summary, state).toEqual([]);
}

const screens = [
  ...HASH_SCREENS.map((s) => hrefFor(s, undefined, { via: "hash" })),
  ...PATH_SCREENS.map((s) => hrefFor(s)),
  "/cart",
];

test("every screen a visitor can see has no axe violations", async ({ page }) => {
  test.setTimeout(120_000);
  const publicScreens = [
    ...HASH_SCREENS.filter((s) => !requiresLogin(s)).map((s) =>
      hrefFor(s, undefined, { via: "hash" }),
    ),
    ...PATH_SCREENS.filter((s) => !requiresLogin(s)).map((s) => hrefFor(s)),
    "/cart",
  ];
  for (const href of publicScreens) {
    await page.goto(href);
    await expectNoViolations(page, `visitor ${href}`);
  }
});

test("every screen has no axe violations for a signed-in user", async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto("/cart/login");
  await page.getByLabel("E-mail").fill("monthly@demo.test");
  await page.getByLabel("Password").fill("demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/cart\/plans/);
  for (const href of screens) {
    await page.goto(href);
    await expectNoViolations(page, `signed in ${href}`);
  }
});

test("the account flows' states have no axe violations", async ({ page }) => {
  test.setTimeout(120_000);
  // An invitation with its team, to a visitor and to a subscriber (the cancellation notice).
  await page.goto("/cart/invite/demo-invite");
  await expect(page.getByRole("link", { name: "Sign in to join" })).toBeVisible();
  await expectNoViolations(page, "invitation, visitor");
  await signIn(page, "monthly@demo.test");
  await page.goto("/cart/invite/demo-invite");
  await expect(page.getByText(/cancels your own subscription/)).toBeVisible();
  await expectNoViolations(page, "invitation, subscriber");

  // The team's owner: each team action's confirmation, and the edit-details form.
  await signIn(page, "owner@demo.test");
  await page.goto("/cart/home");
  for (const [open, keep] of [
    ["Close the team and switch to the free plan", "Keep the team"],
    ["Close the team and delete members", "Keep the team"],
    ["Cancel subscription", "Keep my subscription"],
  ]) {
    await page.getByRole("button", { name: open, exact: true }).click();
    await expect(page.getByRole("region", { name: `${open}?` })).toBeVisible();
    await expectNoViolations(page, `owner, ${open}`);
    await page.getByRole("button", { name: keep }).click();
  }
  await page.getByRole("button", { name: "Edit details" }).click();
  await expect(page.getByLabel("First name")).toBeFocused();
  await expectNoViolations(page, "owner, edit details");

  // A member: leaving the team.
  await signIn(page, "member@demo.test");
  await page.goto("/cart/home");
  await page.getByRole("button", { name: "Leave the team" }).click();
  await expect(page.getByRole("region", { name: "Leave the team?" })).toBeVisible();
  await expectNoViolations(page, "member, leave the team");
});

async function signIn(page: Page, email: string): Promise<void> {
  await page.context().clearCookies();
  const answer = await page.request.post("/api/5/auth/signin", {
    data: { email, password: "demo-password" },
  });
  expect(answer.status()).toBe(200);
}
