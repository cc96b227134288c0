// Paying with PayPal in sandbox mode: the checkout sends the person to the approval page that
// stands in for PayPal, and approving lands on paypalCompleted with the invoice.
import { expect, test } from "./api-helpers.ts";
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

test("cancelling at PayPal charges nothing and leaves a way back", async ({ page, api }) => {
  await api.signUp();
  await page.goto("/cart?p=buy&product=wv_single_1m#checkout");
  expect(await shownTotal(page)).toBe("$9.99");
  await page.getByLabel("PayPal").check();
  await page.getByRole("button", { name: "Pay $9.99 with PayPal" }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(
    page.getByText("You cancelled the payment at PayPal. Nothing was charged."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to the plans" })).toBeVisible();
});
