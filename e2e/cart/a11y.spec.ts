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
