// axe-core finds no violation on the static pages, in every state a visitor can put them in:
// each tab, each billing mode, a toggletip open, every FAQ answer open.
import { expect, test } from "@playwright/test";
import { SITEMAP_PATHS } from "../../src/view-models/seo.ts";
import { axeViolations, expectNoAxeViolations as expectNoViolations } from "../axe.ts";

// /faq is checked below, as it comes and then with every answer open, on one load. The others
// two to a test, in one browser context (a few screens may share one context: e2e/README.md,
// decision 0069), each a load of its own, checked soft so that both pages' violations are
// reported; the static pages store nothing, so the second page is as a new visitor sees it.
const paths = [...SITEMAP_PATHS.filter((p) => p !== "/faq"), "/404"];
for (let i = 0; i < paths.length; i += 2) {
  const pair = paths.slice(i, i + 2);
  test(`${pair.join(" and ")} have no axe violations`, async ({ page }) => {
    test.setTimeout(pair.length * test.info().timeout);
    for (const path of pair) {
      await test.step(path, async () => {
        await page.goto(path);
        expect.soft(await axeViolations(page), path).toEqual([]);
      });
    }
  });
}

// At most two axe runs a test, so that both workers share them: four axe runs in one test
// outlasted its 30 s on the busy shared machine. Two states a visitor reaches one from the other
// share one load (several checks of one state share one load: e2e/README.md): axe is injected
// once per document, and the first check's state is the second's starting point.
for (const tab of ["Business", "Education"]) {
  test(`/plans has no axe violations in monthly mode on the ${tab} tab`, async ({ page }) => {
    await page.goto("/plans");
    await page.getByRole("radio", { name: /^Monthly/ }).check();
    await page.getByRole("radio", { name: tab, exact: true }).check();
    await expectNoViolations(page, `${tab}, monthly`);
  });
}

test("/plans has no axe violations in monthly mode on the Personal tab, and with a toggletip open", async ({
  page,
}) => {
  await page.goto("/plans");
  await page.getByRole("radio", { name: /^Monthly/ }).check();
  await page.getByRole("radio", { name: "Personal", exact: true }).check();
  await expectNoViolations(page, "Personal, monthly");
  // No toggletip is open before the click (the first check saw the page without one).
  await expect(page.locator(".tip-text:popover-open")).toHaveCount(0);
  const tip = page.getByRole("button", { name: /^About:/ }).first();
  await tip.click();
  // The popover is open before axe looks, so that its text is part of what is checked.
  await expect(page.locator(".tip-text:popover-open")).toHaveCount(1);
  await expectNoViolations(page, "toggletip open");
});

test("/faq has no axe violations, as it comes and with every answer open", async ({ page }) => {
  await page.goto("/faq");
  await expectNoViolations(page, "/faq");
  for (const summary of await page.locator("summary").all()) await summary.click();
  // Every answer is open before axe looks again.
  await expect(page.locator("details:not([open])")).toHaveCount(0);
  await expectNoViolations(page, "all answers open");
});
