// Visual comparisons of the static pages at 375, 768 and 1280 pixels wide against the baselines
// committed beside this file (screenshots.spec.ts-screenshots/, path set in playwright.config.ts):
// a changed colour, layout or price fails here. e2e/README.md says how to update the baselines
// when a change is meant.
//
// What a page shows depends on the visitor's clock (the inline script shows campaign prices and
// banners inside their windows, and writes the footer's year), so the browser's clock is set to
// one fixed time; campaigns that ended before the build are not in the HTML at all, and those
// still in it are hidden at that time unless their window covers it. Animations are stopped and
// the caret hidden by toHaveScreenshot itself; fonts are the system's (Debian's, on this machine
// and in CI).
import { expect, test } from "@playwright/test";

const WIDTHS = [375, 768, 1280];
const PAGES: [string, string][] = [
  ["plans", "/plans"],
  ["plans-business-monthly", "/plans/business"],
  ["plans-education", "/plans/education"],
  ["pricing", "/pricing"],
  ["faq", "/faq"],
];

/** The visitor's clock in every screenshot: the footer reads 2026. */
const VISITED_AT = new Date("2026-06-15T12:00:00Z");

for (const [name, path] of PAGES) {
  for (const width of WIDTHS) {
    test(`${name} at ${width}px looks as it did`, async ({ page }) => {
      await page.clock.setFixedTime(VISITED_AT);
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      if (name.endsWith("-monthly")) await page.getByRole("radio", { name: /^Monthly/ }).check();
      await expect(page.locator("[data-year]")).toHaveText("2026");
      await expect(page).toHaveScreenshot(`${name}-${width}.png`, { fullPage: true });
    });
  }
}
