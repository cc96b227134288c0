// Paying with PayPal in sandbox mode: the checkout sends the person to the approval page that
// stands in for PayPal, and approving lands on paypalCompleted with the invoice; cancelling
// returns to the checkout as it was. Inside /dev/hub the approval page opens in its own window
// (it is never framed) and the frame continues once the person has chosen (issue 21, item 5).
import type { Page } from "@playwright/test";
import { expect, test, uniqueEmail } from "./api-helpers.ts";
import { shownTotal } from "./purchase-helpers.ts";

test("a new customer buys Unlimited monthly with PayPal", async ({ page, api }) => {
  await api.signUp();
  await page.goto("/cart?p=buy&product=wv_unloct17_1m#checkout");
  expect(await shownTotal(page)).toBe("$15.99");
  await page.getByLabel("PayPal").check();
  await page.getByRole("button", { name: "Pay $15.99 with PayPal" }).click();

  await expect(page.getByRole("heading", { name: "PayPal sandbox" })).toBeVisible();
  await expect(page.getByText("Total today: $15.99")).toBeVisible();
  await page.getByRole("button", { name: "Approve and pay" }).click();

  await expect(page).toHaveURL(/paypal=approved/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("PayPal payment complete");
  await expect(page.getByTestId("paid")).toHaveText("$15.99");
  await expect(page.getByText("PayPal", { exact: true })).toBeVisible();
});

test("cancelling at PayPal returns to the checkout with the plan kept, charging nothing", async ({
  page,
  api,
}) => {
  await api.signUp();
  await page.goto("/cart?p=buy&product=wv_single_1m#checkout");
  expect(await shownTotal(page)).toBe("$9.99");
  await page.getByLabel("PayPal").check();
  await page.getByRole("button", { name: "Pay $9.99 with PayPal" }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(
    page.getByText(
      "You cancelled the payment at PayPal. Nothing was charged: pay with PayPal again or by card.",
    ),
  ).toBeVisible();
  await expect(page).toHaveURL(/product=wv_single_1m.*#checkout$/);
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("PayPal payment complete");
  expect(await shownTotal(page)).toBe("$9.99");
  // PayPal stays picked: paying again is one click.
  await expect(page.getByRole("button", { name: "Pay $9.99 with PayPal" })).toBeVisible();
});

function hub(page: Page, cart: string) {
  return page.goto(`/dev/hub?cart=${encodeURIComponent(cart)}`);
}
const named = (page: Page, name: string) => page.locator(`#events li[data-event="${name}"]`);

/** Inside the hub: PayPal's stand-in opens in its own window, never in the frame. */
async function paypalWindow(page: Page, total: string) {
  const frame = page.frameLocator("#cart");
  await frame.getByLabel("PayPal").check();
  const popup = page.waitForEvent("popup");
  await frame.getByRole("button", { name: `Pay ${total} with PayPal` }).click();
  const approval = await popup;
  await expect(approval.getByRole("heading", { name: "PayPal sandbox" })).toBeVisible();
  await expect(approval.getByText(`Total today: ${total}`)).toBeVisible();
  await expect(named(page, "payment_paypal")).toHaveCount(1);
  await expect(frame.getByText("PayPal is open in another window")).toBeVisible();
  return { frame, approval };
}

test("inside the hub, PayPal approves in its own window and the frame completes", async ({
  page,
  api,
}) => {
  await api.signUp({ email: uniqueEmail("hub-paypal-ok"), password: "hub-secret" });
  await hub(page, "/cart?p=buy&product=wv_single_1m#checkout");
  const { frame, approval } = await paypalWindow(page, "$9.99");
  await approval.getByRole("button", { name: "Approve and pay" }).click();
  // The frame continues, and closes PayPal's window.
  await expect(frame.getByRole("heading", { level: 1 })).toHaveText("PayPal payment complete");
  await expect.poll(() => approval.isClosed()).toBe(true);
  await expect(frame.getByTestId("paid")).toHaveText("$9.99");
  await expect(named(page, "checkout_completed_success")).toHaveCount(1);
  await expect(named(page, "checkout_completed_failure")).toHaveCount(0);
});

test("inside the hub, a cancelled PayPal window returns the frame to its checkout", async ({
  page,
  api,
}) => {
  await api.signUp({ email: uniqueEmail("hub-paypal-cancel"), password: "hub-secret" });
  await hub(page, "/cart?p=buy&product=wv_bizoct17_1m&seats=4#checkout");
  const frame = page.frameLocator("#cart");
  const total = (await frame.locator("[data-testid=total]").first().textContent())?.trim() ?? "";
  const { approval } = await paypalWindow(page, total);
  await approval.getByRole("button", { name: "Cancel" }).click();
  await expect(
    frame.getByText(
      "You cancelled the payment at PayPal. Nothing was charged: pay with PayPal again or by card.",
    ),
  ).toBeVisible();
  await expect(named(page, "checkout_completed_failure")).toHaveCount(1);
  await expect(named(page, "checkout_completed_success")).toHaveCount(0);
  // The plan and its seats are as they were.
  await expect(frame.getByRole("button", { name: `Pay ${total} with PayPal` })).toBeVisible();
});

test("inside the hub, an approval whose price changed meanwhile fails and charges nothing", async ({
  page,
  api,
}) => {
  await api.signUp({ email: uniqueEmail("hub-paypal-fail"), password: "hub-secret" });
  await hub(page, "/cart?p=buy&product=wv_single_1m#checkout");
  const { frame, approval } = await paypalWindow(page, "$9.99");
  // The same plan bought by card meanwhile (another tab): the approval no longer pays for it.
  await api.subscribe("wv_single_1m");
  await approval.getByRole("button", { name: "Approve and pay" }).click();
  await expect(
    frame.getByText(
      "The price changed before PayPal's approval, so nothing was charged. Check the total and pay again.",
    ),
  ).toBeVisible();
  await expect(named(page, "checkout_completed_failure")).toHaveCount(1);
  await expect(named(page, "checkout_completed_success")).toHaveCount(0);
});
