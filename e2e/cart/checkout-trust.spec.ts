// Trust and clarity (issue 22, item 8): the checkout says who processes the payment (in the
// sandbox: that it is a test form), the terms line is beside Pay and opens in a new tab, the
// payment-completed page names the plan bought, what was paid, the next renewal and the receipt,
// and a PayPal cancellation never lands on a page titled "complete".
import { expectNoAxeViolations } from "./account-helpers.ts";
import { expect, test } from "./api-helpers.ts";
import { fillCard, shownTotal } from "./purchase-helpers.ts";

test("who processes the payment, the terms beside Pay, and what was bought", async ({
  page,
  api,
}) => {
  const email = await api.signUp();
  await page.goto("/cart?p=buy&product=wv_unloct17_12m#checkout");
  expect(await shownTotal(page)).toBe("$95.88");
  await expect(
    page.getByText("Test payments: no money moves and no card is charged."),
  ).toBeVisible();
  const payment = page.getByRole("form", { name: "Payment" });
  await expect(
    payment.getByText("By paying you agree to the terms of use and the privacy policy."),
  ).toBeVisible();
  for (const name of ["terms of use", "privacy policy"]) {
    await expect(payment.getByRole("link", { name })).toHaveAttribute("target", "_blank");
  }
  await fillCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $95.88" }).click();

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment complete");
  await expect(page.getByRole("status")).toContainText("You paid $95.88 for Unlimited");
  await expect(page.getByTestId("next-renewal")).toHaveText(
    /^Next renewal: \w+ \d{1,2}, \d{4}, \$95\.88 every year \(no tax\)\. Cancel any time from your account\.$/,
  );
  // The receipt goes to the e-mail address; the invoice is made out to the buyer, by name.
  await expect(page.getByTestId("receipt")).toContainText(
    /^We sent the receipt to .+\. Invoice INV-\d{4}-\d{6} is made out to Pat Tester\./,
  );
  await expect(page.getByTestId("receipt")).toContainText(`We sent the receipt to ${email}.`);
  await expectNoAxeViolations(page, "payment completed, with the plan and renewal");
});

test("a PayPal cancellation is never titled complete", async ({ page, api }) => {
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
  await expect(page.getByRole("heading", { level: 1 })).not.toContainText(/complete/i);
  await expect(page).not.toHaveTitle(/complete/i);
  await expectNoAxeViolations(page, "PayPal cancelled");
});
