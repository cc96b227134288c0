// Add-ons, as a person buys them: the essentials add-on from its screen (/cart#essentials), and a
// single export in HD or 4K (/cart#checkout_single_export), standalone and inside the hub, where
// confirming posts clicked_confirm_single_export and the settled payment
// checkout_completed_success (spec 4's event names).

import type { Page } from "@playwright/test";
import { api as contract } from "../../src/contract/index.ts";
import { tabTo } from "./account-helpers.ts";
import { expect, test } from "./api-helpers.ts";
import { fillCard, shownTotal } from "./purchase-helpers.ts";

const heading = (page: Page) => page.getByRole("heading", { level: 1 });

test("a Power subscriber adds Essentials from the essentials screen", async ({ page, api }) => {
  test.setTimeout(60_000);
  await api.signUp();
  await api.subscribe("wv_single_12m");
  // A new page load: the app reads the account (bought outside this page) at start-up.
  await page.goto("about:blank");
  await page.goto("/cart#essentials");
  await expect(heading(page)).toHaveText("Add Essentials");
  await expect(page.getByTestId("essentials-offer")).toHaveText(
    "Add Essentials for $119.88 per year: your plan then costs $179.76. The next step shows what is due today.",
  );
  await page.getByRole("link", { name: "Add Essentials" }).click();

  await expect(heading(page)).toHaveText("Checkout");
  await expect(page).toHaveURL(/product=wv_single_plus_12m/);
  await expect(page.getByLabel(/Add Essentials/)).toBeChecked();
  const total = await shownTotal(page);
  await page.getByRole("button", { name: `Pay ${total}` }).click();
  await expect(heading(page)).toHaveText("Payment complete");

  await page.goto("/cart#essentials");
  await expect(page.getByText("Your plan includes Essentials.")).toBeVisible();
});

test("an account with Essentials is told so", async ({ page, api }) => {
  await api.signIn("annual@demo.test");
  await page.goto("/cart#essentials");
  await expect(page.getByText("Your plan includes Essentials.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Add Essentials" })).toHaveCount(0);
});

test("a single HD export, then a 4K one, bought by card", async ({ page, api }) => {
  test.setTimeout(60_000);
  await api.signUp();
  // Without a product the screen picks HD.
  await page.goto("/cart#checkout_single_export");
  await expect(heading(page)).toHaveText("Buy a single export");
  await expect(page).toHaveURL(/product=single_export_hd/);
  await expect(page.getByLabel("HD (1080p)")).toBeChecked();
  expect(await shownTotal(page)).toBe("$2.99");
  await page.getByLabel("4K (2160p)").check();
  await expect(page).toHaveURL(/product=single_export_4k/);
  await expect(page.getByTestId("total")).toHaveText("$4.99");
  await page.getByLabel("HD (1080p)").check();
  await expect(page.getByTestId("total")).toHaveText("$2.99");

  await fillCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $2.99" }).click();
  await expect(heading(page)).toHaveText("Payment complete");
  await expect(page.getByTestId("paid")).toHaveText("$2.99");

  // The saved card buys the next one; the account's plan is unchanged (an export is one-off).
  await page.goto("/cart?product=single_export_4k#checkout_single_export");
  await expect(page.getByLabel("The card on your account")).toBeChecked();
  await page.getByRole("button", { name: "Pay $4.99" }).click();
  await expect(heading(page)).toHaveText("Payment complete");
  await expect(page.getByTestId("paid")).toHaveText("$4.99");
  const context = await api.call(contract.userContext);
  expect(context.productCode).toBe("wv_free");
});

test("inside the hub, a single export posts the spec's events", async ({ page, api }) => {
  test.setTimeout(60_000);
  await api.signUp();
  await page.goto(
    `/dev/hub?cart=${encodeURIComponent("/cart?product=single_export_4k#checkout_single_export")}`,
  );
  const frame = page.frameLocator("#cart");
  await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Buy a single export");
  await expect(frame.getByTestId("total")).toHaveText("$4.99");
  await fillCard(frame, "4242 4242 4242 4242");
  await frame.getByRole("button", { name: "Pay $4.99" }).click();
  await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Payment complete");

  const events = page.locator("#events li");
  const named = (name: string) => page.locator(`#events li[data-event="${name}"]`);
  await expect(named("clicked_confirm_single_export")).toContainText(
    '"productCode":"single_export_4k"',
  );
  await expect(named("payment_credit_card")).toHaveCount(1);
  await expect(named("checkout_completed_success")).toContainText(
    '"productCode":"single_export_4k"',
  );
  // Only spec 4's events reach the hub.
  const names = await events.evaluateAll((items) =>
    items.map((item) => (item as HTMLElement).dataset.event),
  );
  expect(new Set(names)).toEqual(
    new Set([
      "cart_navigation",
      "clicked_confirm_single_export",
      "payment_credit_card",
      "checkout_completed_success",
    ]),
  );
});

// Issue 18, item 10: a coupon for other products does not lock the account out of them, and the
// person can remove it, by keyboard too.
test("a coupon for annual plans is not applied to monthly ones and can be removed", async ({
  page,
  api,
}) => {
  test.setTimeout(60_000);
  await api.signUp();
  await page.goto("/cart?p=buy&product=wv_unloct17_12m#checkout");
  await expect(heading(page)).toHaveText("Checkout");
  await page.getByLabel("Coupon code").fill("referafriend");
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  const summary = page.getByRole("table", { name: "Order summary" });
  await expect(summary).toContainText("discount");
  await expect(page.getByText(/^Coupon referafriend applied: you save \$/)).toBeVisible();

  for (const product of ["wv_unloct17_1m", "wv_flex2"]) {
    await page.goto(`/cart?p=buy&product=${product}#checkout`);
    await expect(heading(page)).toHaveText("Checkout");
    await expect(page.getByTestId("coupon-note")).toHaveText(
      /^Coupon 'referafriend' does not apply to .+, so it is not applied\.$/,
    );
    await expect(summary).not.toContainText("discount");
    await expect(page.getByText("This coupon does not apply to this account")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Pay \$/ })).toBeVisible();
  }
  // Across a reload too, and then removed with the keyboard alone.
  await page.reload();
  await expect(page.getByTestId("coupon-note")).toBeVisible();
  const remove = page.getByRole("button", { name: "Remove coupon" });
  await tabTo(page, remove);
  await page.keyboard.press("Enter");
  await expect(remove).toHaveCount(0);
  await expect(page.getByTestId("coupon-note")).toHaveCount(0);
  await expect(page.getByLabel("Coupon code")).toBeFocused();
  await page.goto("/cart?p=buy&product=wv_unloct17_12m#checkout");
  await expect(summary).not.toContainText("discount");
});
