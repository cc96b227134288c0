// Additional seats (/cart#additional-seats), as a team's owner buys them: the screen says how many
// seats the team uses, the owner chooses the seats in total, the checkout prices the added seats
// (prorated) before anything is paid, and the saved card pays. A team member cannot buy seats and
// is told why and whom to ask; an account without a team is offered the Business plan.

import type { Page } from "@playwright/test";
import { expect, test } from "./api-helpers.ts";
import { shownTotal } from "./purchase-helpers.ts";

const heading = (page: Page) => page.getByRole("heading", { level: 1 });

test("the demo team's owner sees the team's seats and may add more", async ({ page, api }) => {
  await api.signIn("owner@demo.test");
  await page.goto("/cart#additional-seats");
  await expect(heading(page)).toHaveText("Add seats");
  await expect(page.getByTestId("seat-usage")).toHaveText("Your team uses 2 of its 5 seats.");
  await expect(page.getByLabel("Seats in total")).toHaveValue("6");
});

test("a new team's owner adds two seats with the saved card", async ({ page, api }) => {
  test.setTimeout(60_000);
  await api.signUp();
  await api.subscribe("wv_bizoct17_12m");
  // A new page load: the app reads the account (bought outside this page) at start-up.
  await page.goto("about:blank");
  await page.goto("/cart#additional-seats");
  await expect(page.getByTestId("seat-usage")).toHaveText("Your team uses 1 of its 3 seats.");
  await page.getByLabel("Seats in total").fill("5");
  await page.getByRole("button", { name: "Continue" }).click();

  // The checkout keeps the seats (in its URL, so a reload keeps them too) and prices them.
  await expect(heading(page)).toHaveText("Checkout");
  await expect(page).toHaveURL(/seats=5/);
  await expect(page.getByLabel("Seats")).toHaveValue("5");
  const summary = page.getByRole("table", { name: "Order summary" });
  await expect(summary).toContainText("2 extra seats");
  await expect(summary).toContainText("Credit for the unused part of your current plan");
  await page.reload();
  await expect(page.getByLabel("Seats")).toHaveValue("5");
  const total = await shownTotal(page);

  await expect(page.getByLabel("The card on your account")).toBeChecked();
  await page.getByRole("button", { name: `Pay ${total}` }).click();
  await expect(heading(page)).toHaveText("Payment complete");
  // Charged: the prorated amount shown; the receipt also names the new yearly price (5 seats).
  await expect(page.getByTestId("paid")).toHaveText(total);
  await expect(page.getByTestId("price")).toHaveText("$923.64");

  await page.goto("/cart#additional-seats");
  await expect(page.getByTestId("seat-usage")).toHaveText("Your team uses 1 of its 5 seats.");
});

test("a team member cannot buy seats and is told why and whom to ask", async ({ page, api }) => {
  await api.signIn("member@demo.test");
  await page.goto("/cart#additional-seats");
  await expect(heading(page)).toHaveText("Add seats");
  const notice = page.getByTestId("managed-account");
  await expect(notice).toContainText("Your plan comes with your team's workspace");
  await expect(notice).toContainText(
    "Ask the owner of your team's workspace to change the plan or add seats.",
  );
  await expect(page.getByLabel("Seats in total")).toHaveCount(0);
  // Nor through the checkout's URL.
  await page.goto("/cart?p=buy&product=wv_bizoct17_12m&seats=9#checkout");
  await expect(page.getByTestId("managed-account")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
});

test("an account without a team is offered the Business plan, seats kept", async ({
  page,
  api,
}) => {
  await api.signUp();
  await page.goto("/cart#additional-seats");
  await expect(page.getByText("Seats come with the Business plan")).toBeVisible();
  await page.getByRole("link", { name: "See the Business plan" }).click();
  await expect(heading(page)).toHaveText("Checkout");
  await expect(page.getByLabel("Seats")).toHaveValue("3");
  await page.getByLabel("Seats").fill("4");
  await expect(page).toHaveURL(/seats=4/);
  await expect(page.getByRole("table", { name: "Order summary" })).toContainText("1 extra seat");
});
