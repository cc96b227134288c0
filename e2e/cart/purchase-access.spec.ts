// Who may buy where: accounts whose upgrades are turned off (disableAccountUpgrades) or billed by
// a mobile app store are sent to /cart#upgrades-disabled from any purchase screen and told where
// to change their plan (spec 2.5 and 6); the order summary route (/cart/checkout_summary) is the
// checkout under another address, and takes the form its host wants (spec 2.2: the hash route
// inside the hub, the browser path in the extension).

import type { Page } from "@playwright/test";
import { expect, test } from "./api-helpers.ts";
import { fillCard, shownTotal } from "./purchase-helpers.ts";

const heading = (page: Page) => page.getByRole("heading", { level: 1 });

for (const [email, says] of [
  [
    "mobile@demo.test",
    "Your subscription is billed through the App Store, so it cannot be changed here. Change or cancel it in the App Store.",
  ],
  [
    "locked@demo.test",
    "Upgrades are turned off for this account, so its plan cannot be changed here.",
  ],
] as const) {
  test(`${email} is sent to upgrades-disabled from every purchase screen`, async ({
    page,
    api,
  }) => {
    await api.signIn(email);
    for (const screen of [
      "/cart?p=buy&product=wv_unloct17_12m#checkout",
      "/cart/checkout_summary?p=buy&product=wv_unloct17_12m",
      "/cart?p=trial&product=wv_unloct17_12m#checkout",
      "/cart#plans",
      "/cart#additional-seats",
      "/cart?product=single_export_hd#checkout_single_export",
    ]) {
      await page.goto(screen);
      await expect(heading(page), screen).toHaveText("Upgrades are not available");
      await expect(page).toHaveURL(/\/cart#upgrades-disabled$/);
      await expect(page.getByTestId("upgrades-disabled")).toHaveText(says);
    }
    await expect(page.getByRole("link", { name: "Contact support" })).toHaveAttribute(
      "href",
      "/support",
    );
  });
}

test("the order summary route is the checkout: it prices and pays", async ({ page, api }) => {
  await api.signUp();
  await page.goto("/cart/checkout_summary?p=buy&product=wv_single_1m");
  await expect(heading(page)).toHaveText("Order summary");
  expect(await shownTotal(page)).toBe("$9.99");
  // Choosing annual keeps the summary's own address.
  await page.getByLabel("Annual").check();
  await expect(page).toHaveURL(/\/cart\/checkout_summary\?.*product=wv_single_12m/);
  await expect(page.getByTestId("total")).toHaveText("$59.88");
  await fillCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $59.88" }).click();
  await expect(heading(page)).toHaveText("Payment complete");
});

test("the order summary takes the hash form in the hub, the path form in the extension", async ({
  page,
  api,
}) => {
  await api.signUp();
  await page.goto(
    `/dev/hub?cart=${encodeURIComponent("/cart/checkout_summary?p=buy&product=wv_single_12m")}`,
  );
  const frame = page.frameLocator("#cart");
  await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Order summary");
  await expect(
    page.locator('#events li[data-event="cart_navigation"]').filter({
      hasText: '"hash":"#checkout_summary"',
    }),
  ).not.toHaveCount(0);

  await page.goto("/cart?p=buy&product=wv_single_12m&origin=rce#checkout_summary");
  await expect(heading(page)).toHaveText("Order summary");
  await expect(page).toHaveURL(/\/cart\/checkout_summary\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get("product")).toBe("wv_single_12m");
  expect(url.searchParams.get("origin")).toBe("rce");
  expect(url.hash).toBe("");
});
