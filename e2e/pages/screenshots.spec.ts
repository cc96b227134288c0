// Screenshots of the static pages at 375, 768 and 1280 pixels wide, written with the test results
// (test-results/screenshots/) and attached to the report, for a person to look at.
import { test } from "@playwright/test";

const WIDTHS = [375, 768, 1280];
const PAGES: [string, string][] = [
  ["plans", "/plans"],
  ["plans-business-monthly", "/plans/business"],
  ["plans-education", "/plans/education"],
  ["pricing", "/pricing"],
  ["faq", "/faq"],
];

for (const [name, path] of PAGES) {
  for (const width of WIDTHS) {
    test(`screenshot ${name} at ${width}px`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      if (name.endsWith("-monthly")) await page.getByRole("radio", { name: /^Monthly/ }).check();
      const file = `test-results/screenshots/${name}-${width}.png`;
      await page.screenshot({ path: file, fullPage: true });
      await testInfo.attach(`${name}-${width}`, { path: file, contentType: "image/png" });
    });
  }
}
