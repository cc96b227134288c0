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

/** "December 7, 2027": one term (a year) from today, as the checkout writes dates (UTC). */
function yearFromToday(): string {
  const now = new Date();
  const next = new Date(Date.UTC(now.getUTCFullYear() + 1, now.getUTCMonth(), now.getUTCDate()));
  return next.toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
}

test.describe("laid out as hosted checkouts are (issue 34, item 2)", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the order side names the plan, describes it in a line, and says what it renews at", async ({
    page,
    api,
  }) => {
    await api.signUp();
    await page.goto(CHECKOUT);
    const order = page.getByRole("region", { name: "Your order" });
    const name = order.getByRole("heading", { level: 2 });
    await expect(name).toHaveText("Unlimited");
    // The name alone is the heading; its description is a line of smaller type under it.
    await expect(page.getByRole("heading", { name: /Unlimited:/ })).toHaveCount(0);
    const description = order.getByText(
      "Unlimited publishing in 4K for creators who post every week",
    );
    await expect(description).toBeVisible();
    const size = (el: Element) => Number.parseFloat(getComputedStyle(el).fontSize);
    expect(await description.evaluate(size)).toBeLessThan(await name.evaluate(size));
    const nameBox = await name.boundingBox();
    const descriptionBox = await description.boundingBox();
    expect(nameBox && descriptionBox && descriptionBox.y > nameBox.y).toBe(true);
    // The lines, the total, and then what it renews at and from when.
    await expect(order.getByRole("table", { name: "Order summary" })).toContainText(
      "Unlimited (billed annually)",
    );
    await expect(order.getByTestId("total")).toHaveText("$95.88");
    await expect(order.getByText(`then $95.88 every year from ${yearFromToday()}`)).toBeVisible();
    // The form is on the other side: it starts beside the plan's name, not under the order.
    const form = await page.getByRole("form", { name: "Coupon" }).boundingBox();
    const orderBox = await order.boundingBox();
    expect(form && orderBox && form.x + form.width <= orderBox.x).toBe(true);
    expect(form && orderBox && form.y < orderBox.y + orderBox.height).toBe(true);
    // Payment methods are two tiles side by side.
    const tile = (label: string) =>
      page.locator("label").filter({ has: page.getByRole("radio", { name: label, exact: true }) });
    const card = await tile("Card").boundingBox();
    const paypal = await tile("PayPal").boundingBox();
    expect(card && paypal && Math.abs(card.y - paypal.y) < 1 && paypal.x > card.x).toBe(true);
    await expectNoAxeViolations(page, "checkout, order side");
  });
});

test.describe("in a real 320 px window (no emulated device)", () => {
  // Mobile emulation widens the layout viewport to fit the content, hiding sideways scroll.
  test.use({ viewport: { width: 320, height: 640 }, isMobile: false });

  test("the checkout does not scroll sideways; the card fields and Pay fit", async ({
    page,
    api,
  }) => {
    await api.signUp();
    await page.goto(CHECKOUT);
    const pay = page.getByRole("button", { name: "Pay $95.88" });
    await expect(pay).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      320,
    );
    for (const field of [
      pay,
      page.getByLabel("Card number"),
      page.getByLabel("Security code (CVC)"),
      page.getByLabel("Country"),
    ]) {
      const found = await field.boundingBox();
      expect(found && found.x >= 0 && found.x + found.width <= 320).toBe(true);
    }
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
    // At the top: in the first screen, under the plan's name (issue 34: what is bought, then its
    // total) and above the form.
    expect(await inView(page, toggle)).toBe(true);
    const toggleBox = await toggle.boundingBox();
    const planBox = await page.getByRole("heading", { level: 2, name: "Unlimited" }).boundingBox();
    const formBox = await page.getByRole("form", { name: "Coupon" }).boundingBox();
    expect(planBox && toggleBox && planBox.y < toggleBox.y).toBe(true);
    expect(toggleBox && formBox && toggleBox.y < formBox.y).toBe(true);
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
