// axe-core finds no violation on the static pages, in every state a visitor can put them in:
// each tab, each billing mode, a toggletip open, every FAQ answer open.
import { expect, test } from "@playwright/test";
import { SITEMAP_PATHS } from "../../src/view-models/seo.ts";
import { expectNoAxeViolations as expectNoViolations } from "../axe.ts";

for (const path of [...SITEMAP_PATHS, "/404"]) {
  test(`${path} has no axe violations`, async ({ page }) => {
    await page.goto(path);
    await expectNoViolations(page, path);
  });
}

// One test per state, so that both workers share them: four axe runs in one test outlasted its
// 30 s on the busy shared machine.
for (const tab of ["Personal", "Business", "Education"]) {
  test(`/plans has no axe violations in monthly mode on the ${tab} tab`, async ({ page }) => {
    await page.goto("/plans");
    await page.getByRole("radio", { name: /^Monthly/ }).check();
    await page.getByRole("radio", { name: tab, exact: true }).check();
    await expectNoViolations(page, `${tab}, monthly`);
  });
}

test("/plans has no axe violations in monthly mode with a toggletip open", async ({ page }) => {
  await page.goto("/plans");
  await page.getByRole("radio", { name: /^Monthly/ }).check();
  await page.getByRole("radio", { name: "Personal", exact: true }).check();
  const tip = page.getByRole("button", { name: /^About:/ }).first();
  await tip.click();
  // The popover is open before axe looks, so that its text is part of what is checked.
  await expect(page.locator(".tip-text:popover-open")).toHaveCount(1);
  await expectNoViolations(page, "toggletip open");
});

test("/faq has no axe violations with every answer open", async ({ page }) => {
  await page.goto("/faq");
  for (const summary of await page.locator("summary").all()) await summary.click();
  await expectNoViolations(page, "all answers open");
});
