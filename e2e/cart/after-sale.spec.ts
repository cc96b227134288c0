// Issue 33, items 6 to 9 on the screens: a US address needs its state (flagged beside it when Pay
// is pressed without one), the renewal is named as one amount that says whether tax is in it,
// Flex says it is paid once and valid until a day, and Essentials cancelled stays until when.
import { expect, test, uniqueEmail } from "./api-helpers.ts";
import { fillCard } from "./purchase-helpers.ts";

test("Pay with the State left on Choose… asks for it; California's tax then shows, and the renewal says it includes tax", async ({
  page,
  api,
}) => {
  await api.signUp();
  await page.goto("/cart?p=buy&product=wv_unloct17_12m#checkout");
  await expect(page.getByTestId("total")).toHaveText("$95.88");
  await fillCard(page, "4242 4242 4242 4242", { label: "ZIP code", code: "94103" });
  await page.getByRole("button", { name: "Pay $95.88" }).click();
  const state = page.getByRole("combobox", { name: "State", exact: true });
  await expect(state).toBeFocused();
  await expect(state).toHaveAccessibleDescription(
    "Choose your state: it decides the sales tax of a US address.",
  );
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout");

  // A state its ZIP code disagrees with is refused, said beside it, and nothing is taxed by it.
  await state.selectOption({ label: "Oregon" });
  await expect(state).toHaveAccessibleDescription(
    "ZIP code 94103 is in California, not Oregon. Check the state or the ZIP code.",
  );
  await expect(page.getByTestId("total")).toHaveText("$95.88");

  // California: 95.88 and 7.25 % (6.95) is 102.83, on a line called Sales tax.
  await state.selectOption({ label: "California" });
  await expect(page.getByTestId("total")).toHaveText("$102.83");
  await expect(page.getByRole("table", { name: "Order summary" })).toContainText("Sales tax");
  await expect(state).not.toHaveAttribute("aria-invalid", "true");
  await page.getByRole("button", { name: "Pay $102.83" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment complete");
  await expect(page.getByTestId("next-renewal")).toContainText(
    ", $102.83 every year (tax included). Cancel any time from your account.",
  );
});

test("Flex says it is paid once and valid until a day, with nothing to cancel", async ({
  page,
  api,
}) => {
  await api.signUp({ email: uniqueEmail("flex"), password: "flex-secret-1" });
  await page.goto("/cart?p=buy&product=wv_flex2#checkout");
  await expect(page.getByTestId("total")).toHaveText("$29.99");
  await fillCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $29.99" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment complete");
  const note = page.getByTestId("next-renewal");
  await expect(note).toContainText(
    /^Paid once: valid until \w+ \d+, \d{4}\. It does not renew and nothing more is charged\.$/,
  );
  await expect(page.getByText(/Next renewal|Cancel any time/)).toHaveCount(0);

  await page.goto("/cart/home");
  await expect(page.getByTestId("account-plan")).toHaveText("Flex, paid once");
  await expect(page.getByTestId("account-status")).toHaveText("Paid once, does not renew");
  await expect(page.getByTestId("account-valid-until")).toHaveText(/^\w+ \d+, \d{4}$/);
  await expect(page.getByRole("button", { name: "Cancel subscription" })).toHaveCount(0);
  await expect(page.getByText("renews automatically")).toHaveCount(0);
});

test("cancelling Essentials says it stays until the end of the period paid for", async ({
  page,
  api,
}) => {
  await api.signUp({ email: uniqueEmail("essentials"), password: "essentials-secret" });
  await api.subscribe("wv_single_plus_1m");
  await page.goto("/cart/home");
  const renews = (await page.getByTestId("account-renews-on").innerText()).trim();
  await page.getByRole("button", { name: "Cancel Essentials" }).click();
  await expect(page.getByRole("region", { name: "Cancel Essentials?" })).toContainText(
    `You keep Essentials until ${renews}, the end of the period you paid for.`,
  );
  await page.getByRole("button", { name: "Cancel my Essentials" }).click();
  await expect(
    page.getByRole("status").filter({
      hasText: `Essentials is cancelled. You keep it until ${renews}; your plan then renews without it.`,
    }),
  ).toBeVisible();
  // The renewal is Power's alone, and Essentials is not offered to cancel again.
  await expect(page.getByTestId("account-renewal-amount")).toHaveText("$9.99 every month (no tax)");
  await expect(page.getByRole("button", { name: "Cancel Essentials" })).toHaveCount(0);
  await expect(page.getByTestId("account-essentials-until")).toHaveText(
    `Until ${renews}; your plan then renews without it`,
  );
  await page.goto("/cart#cancel-essentials");
  await expect(page.getByTestId("essentials-until")).toHaveText(
    `Essentials is cancelled. You keep it until ${renews}; your plan then renews without it.`,
  );
});

test("seats added mid-period: the summary, the completed page and the account page name one renewal amount", async ({
  page,
  api,
}) => {
  test.setTimeout(60_000);
  await api.signUp();
  await api.subscribe("wv_bizoct17_12m");
  await page.goto("about:blank");
  await page.goto("/cart?p=buy&product=wv_bizoct17_12m&seats=5#checkout");
  // Business annual with 5 seats renews at $923.64, no tax for an address without a state.
  const words = "$923.64 every year (no tax)";
  await expect(page.getByTestId("addition-renewal")).toContainText(`, at ${words}.`);
  const total = (await page.getByTestId("total").textContent()) ?? "";
  await page.getByRole("button", { name: `Pay ${total}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment complete");
  await expect(page.getByTestId("next-renewal")).toContainText(`, ${words}.`);
  await page.goto("/cart/home");
  await expect(page.getByTestId("account-renewal-amount")).toHaveText(words);
});
