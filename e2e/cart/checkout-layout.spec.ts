// The summary beside the pay button (issue 22, item 5): on a wide screen the order summary is a
// column beside the forms that stays in view down to Pay; on a phone a compact summary with the
// total comes first and opens on request, and the Pay button names the total again. Nothing
// scrolls sideways at 320 px, on the checkout or on the static pages.
import type { Locator, Page } from "@playwright/test";
import { expectNoAxeViolations } from "./account-helpers.ts";
import { expect, test } from "./api-helpers.ts";

const CHECKOUT = "/cart?p=buy&product=wv_unloct17_12m#checkout";

/** Whether the whole of `locator` is inside the viewport (not scrolled out of it). */
async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return false;
  return box.y >= 0 && box.y + box.height <= viewport.height && box.x >= 0;
}

async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

test.describe("on a wide screen", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the summary is a column beside the forms, in view down to Pay", async ({ page, api }) => {
    await api.signUp();
    await page.goto(CHECKOUT);
    const order = page.getByRole("region", { name: "Your order" });
    const total = order.getByTestId("total");
    await expect(total).toHaveText("$95.88");
    // The lines are shown at once; the phone's toggle is not offered.
    await expect(order.getByRole("table", { name: "Order summary" })).toBeVisible();
    await expect(order.getByRole("button", { name: /order summary/ })).toBeHidden();
    // Beside the forms, not above or below them.
    const forms = page.getByRole("form", { name: "Billing address" });
    const orderBox = await order.boundingBox();
    const formBox = await forms.boundingBox();
    expect(orderBox && formBox && orderBox.x >= formBox.x + formBox.width).toBe(true);
    // Scrolled down to Pay, the total is still in view beside it.
    const pay = page.getByRole("button", { name: "Pay $95.88" });
    await pay.scrollIntoViewIfNeeded();
    await expect.poll(() => inView(page, pay)).toBe(true);
    await expect.poll(() => inView(page, total)).toBe(true);
    await expect(page.getByText("By paying you agree to the terms of use")).toBeVisible();
    await expectNoAxeViolations(page, "checkout, wide screen");
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });

  test("the total comes first and opens into the lines; Pay names it again", async ({
    page,
    api,
  }) => {
    await api.signUp();
    await page.goto(CHECKOUT);
    const toggle = page.getByRole("button", { name: /Show order summary/ });
    await expect(toggle).toContainText("Total due today $95.88");
    // At the top: in the first screen, above the plan's own heading.
    expect(await inView(page, toggle)).toBe(true);
    const toggleBox = await toggle.boundingBox();
    const planBox = await page.getByRole("heading", { level: 2 }).first().boundingBox();
    expect(toggleBox && planBox && toggleBox.y < planBox.y).toBe(true);
    // The lines are folded away until asked for.
    await expect(page.getByRole("table", { name: "Order summary" })).toBeHidden();
    await toggle.click();
    await expect(page.getByRole("button", { name: /Hide order summary/ })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    await expect(page.getByRole("table", { name: "Order summary" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Order summary" })).toContainText("$95.88");
    await expect(page.getByRole("button", { name: "Pay $95.88" })).toBeVisible();
    await expectNoAxeViolations(page, "checkout, phone, summary open");
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });
});

test.describe("at 320 px", () => {
  test.use({ viewport: { width: 320, height: 568 }, isMobile: true, hasTouch: true });

  test("the checkout and the plans screen do not scroll sideways", async ({ page, api }) => {
    await api.signUp();
    await page.goto(CHECKOUT);
    await expect(page.getByRole("button", { name: "Pay $95.88" })).toBeVisible();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await page.goto("/cart#plans");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByText("Loading", { exact: false })).toHaveCount(0);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

  for (const path of ["/", "/plans", "/plans/education", "/pricing", "/faq", "/cart/login"]) {
    test(`${path} does not scroll sideways`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    });
  }
});
