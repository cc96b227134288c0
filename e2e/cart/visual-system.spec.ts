// One visual system for the whole product (issue 34, item 1): the static pages and the checkout
// read the same design tokens (src/styles/tokens.css), and every control of the checkout is drawn
// from them: a select is a text field with an arrow, choices are tiles, groups are not boxed, and
// the header is the static pages' one, a single row with an account menu. Geometry and computed
// styles, not pixels: no screenshot is compared.
import type { Locator, Page } from "@playwright/test";
import { expectNoAxeViolations } from "./account-helpers.ts";
import { expect, test } from "./api-helpers.ts";

const CHECKOUT = "/cart?p=buy&product=wv_unloct17_12m#checkout";
const TOKENS = ["--brand", "--ink", "--radius", "--space-4", "--text-sm", "--control-h", "--font"];
const BRAND = "rgb(76, 43, 209)";

async function tokens(page: Page): Promise<string[]> {
  return page.evaluate(
    (names) =>
      names.map((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim()),
    TOKENS,
  );
}

async function css(locator: Locator, props: string[]): Promise<Record<string, string>> {
  return locator.evaluate(
    (el, names) =>
      Object.fromEntries(names.map((n) => [n, getComputedStyle(el).getPropertyValue(n)])),
    props,
  );
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error("not laid out");
  return found;
}

/** The tile (label) that holds the radio named `name`. */
const tile = (page: Page, name: string) =>
  page.locator("label").filter({ has: page.getByRole("radio", { name, exact: true }) });

test.describe("on a wide screen", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("the static pages and the checkout read the same tokens", async ({ page, api }) => {
    await page.goto("/plans");
    const onPlans = await tokens(page);
    expect(onPlans.filter((value) => value === "")).toEqual([]);
    await api.signUp();
    await page.goto(CHECKOUT);
    await expect(page.getByRole("button", { name: "Pay $95.88" })).toBeVisible();
    expect(await tokens(page)).toEqual(onPlans);
  });

  test("a select is a text field with an arrow, choices are tiles, groups are not boxed", async ({
    page,
    api,
  }) => {
    await api.signUp();
    await page.goto(CHECKOUT);
    const name = page.getByLabel("Name on the invoice");
    const country = page.getByLabel("Country");
    await expect(country).toBeVisible();
    // As tall and as wide as the text field above it, with the same edge and corners.
    const [nameBox, countryBox] = [await box(name), await box(country)];
    expect(Math.abs(countryBox.height - nameBox.height)).toBeLessThan(1);
    expect(Math.abs(countryBox.width - nameBox.width)).toBeLessThan(1);
    const edge = ["border-top-color", "border-top-width", "border-top-left-radius"];
    expect(await css(country, edge)).toEqual(await css(name, edge));
    expect(nameBox.height).toBeGreaterThanOrEqual(40);
    // The platform's drop-down look is replaced by the page's own arrow.
    const select = await css(country, ["appearance", "background-image"]);
    expect(select.appearance).toBe("none");
    expect(select["background-image"]).toContain("svg");
    // Groups are spaced, not boxed.
    for (const group of ["Billing period", "Payment method"]) {
      const style = await css(page.getByRole("group", { name: group }), ["border-top-style"]);
      expect(style["border-top-style"], group).toBe("none");
    }
    // Each choice is a tile, side by side with its neighbour; the chosen one in the brand colour.
    for (const [a, b] of [
      ["Monthly", "Annual"],
      ["Card", "PayPal"],
    ] as const) {
      const [boxA, boxB] = [await box(tile(page, a)), await box(tile(page, b))];
      expect(Math.abs(boxA.y - boxB.y), `${a} beside ${b}`).toBeLessThan(1);
      expect(boxA.height).toBeGreaterThanOrEqual(40);
      const style = await css(tile(page, a), ["border-top-width", "border-top-left-radius"]);
      expect(style["border-top-width"]).not.toBe("0px");
      expect(style["border-top-left-radius"]).not.toBe("0px");
    }
    expect((await css(tile(page, "Annual"), ["border-top-color"]))["border-top-color"]).toBe(BRAND);
    expect((await css(tile(page, "Monthly"), ["border-top-color"]))["border-top-color"]).not.toBe(
      BRAND,
    );
    await tile(page, "PayPal").click();
    await expect(page.getByRole("radio", { name: "PayPal" })).toBeChecked();
    expect((await css(tile(page, "PayPal"), ["border-top-color"]))["border-top-color"]).toBe(BRAND);
    // Buttons: the primary is filled, the secondary outlined, both as tall as a field.
    const pay = page.getByRole("button", { name: /^Pay \$95\.88/ });
    const apply = page.getByRole("button", { name: "Apply" });
    expect((await css(pay, ["background-color"]))["background-color"]).toBe(BRAND);
    const secondary = await css(apply, ["border-top-color", "background-color"]);
    expect(secondary["border-top-color"]).toBe(BRAND);
    expect(secondary["background-color"]).toBe("rgb(255, 255, 255)");
    expect(Math.abs((await box(apply)).height - nameBox.height)).toBeLessThan(1);
    await expectNoAxeViolations(page, "checkout, controls from the tokens");
  });
});

test.describe("the header on a phone", () => {
  test.use({ viewport: { width: 375, height: 667 } });

  test("is one row of at most 64 px, with an account menu", async ({ page, api }) => {
    await api.signUp();
    await page.goto(CHECKOUT);
    const banner = page.getByRole("banner");
    await expect(banner.getByRole("link", { name: "Video Editor home" })).toBeVisible();
    expect((await box(banner)).height).toBeLessThanOrEqual(64);
    // The total is in the first screen, under the header.
    await expect(page.getByTestId("compact-total")).toHaveText("$95.88");
    await expect(page.getByTestId("compact-total")).toBeInViewport({ ratio: 1 });
    // The menu is closed until opened; it names the person and holds the account's links.
    const account = banner.getByRole("link", { name: "Your account" });
    await expect(account).toBeHidden();
    await banner.getByText(/^buyer-/).click();
    for (const link of ["Your account", "Plans", "Sign out"]) {
      await expect(banner.getByRole("link", { name: link })).toBeVisible();
    }
    await expectNoAxeViolations(page, "checkout, account menu open");
    await account.click();
    await expect(page).toHaveURL(/\/cart\/home$/);
    await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
    // A link followed inside the app closes the menu.
    await expect(account).toBeHidden();
  });

  test("signed out, it is one row too", async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto("/cart/plans");
    const banner = page.getByRole("banner");
    await expect(banner.getByRole("link", { name: "Log in" })).toBeVisible();
    await expect(banner.getByRole("link", { name: "Pricing" })).toBeVisible();
    expect((await box(banner)).height).toBeLessThanOrEqual(64);
    await banner.getByText("Sign up", { exact: true }).click();
    await expect(banner.getByRole("link", { name: "Business" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      320,
    );
  });
});
