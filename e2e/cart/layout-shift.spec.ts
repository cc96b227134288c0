// Nothing on the checkout moves under the reader's eyes (UX.md, issue 9's goal of a layout shift
// of at most 0.01): the plans screen and the checkout, loaded on a phone-sized screen and
// followed until the card fields have mounted, add up the browser's own layout-shift entries.
// Shifts are geometry, not time, so this is a test; the Lighthouse figures are in `npm run bench`.
import { hrefFor } from "../../src/domain/checkout/screens.ts";
import { expect, test } from "./api-helpers.ts";
import { GOAL, recordShifts, shifts } from "./layout-shifts.ts";

// Lighthouse's mobile screen (Moto G Power): the size at which the bench measures.
test.use({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });

test.beforeEach(async ({ page, api }) => {
  await api.signIn("free@demo.test");
  await recordShifts(page);
});

test("the plans screen does not move while it loads", async ({ page }) => {
  await page.goto(`${hrefFor("plans", undefined, { via: "hash" })}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("Loading", { exact: false })).toHaveCount(0);
  await page.waitForLoadState("networkidle");
  const { total, sources } = await shifts(page);
  expect(total, sources.join("; ")).toBeLessThanOrEqual(GOAL);
});

test("the checkout does not move while it loads, also when the card fields mount", async ({
  page,
}) => {
  await page.goto(hrefFor("checkout", { product: "wv_single_12m" }, { via: "hash" }));
  await expect(page.getByLabel("Card number")).toBeVisible();
  await expect(page.getByText(/Total/).first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  const { total, sources } = await shifts(page);
  expect(total, sources.join("; ")).toBeLessThanOrEqual(GOAL);
});
