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
  // Added mid-period: the rest of the billing period, pro rata, renewing on the same date
  // (issue 18, item 9).
  const summary = page.getByRole("table", { name: "Order summary" });
  await expect(summary).toContainText("2 added seats for the rest of your billing period");
  await expect(summary).not.toContainText("Credit for the unused part of your current plan");
  await expect(page.getByTestId("addition-renewal")).toContainText(
    "Your subscription renews as before on",
  );
  await page.reload();
  await expect(page.getByLabel("Seats")).toHaveValue("5");
  const total = await shownTotal(page);

  await expect(page.getByLabel("The card on your account")).toBeChecked();
  await page.getByRole("button", { name: `Pay ${total}` }).click();
  await expect(heading(page)).toHaveText("Payment complete");
  // Charged: the pro-rata amount shown; the receipt also names the new yearly price (5 seats).
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

// Issue 18, item 11: the summary and the charge follow the seat count on screen.
test("seats below the Business minimum take the price off and say at least 3", async ({
  page,
  api,
}) => {
  await api.signUp();
  await page.goto("/cart?p=buy&product=wv_bizoct17_12m#checkout");
  await expect(heading(page)).toHaveText("Checkout");
  const seats = page.getByLabel("Seats", { exact: true });
  const summary = page.getByRole("table", { name: "Order summary" });
  await seats.fill("4");
  await expect(summary).toContainText("1 extra seat");
  await seats.fill("2");
  await expect(page.getByRole("alert").filter({ hasText: "at least 3" })).toBeVisible();
  await expect(seats).toHaveAttribute("aria-invalid", "true");
  await expect(summary).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Pay/ })).toBeDisabled();
  await expect(page.getByRole("button", { name: /^Pay \$/ })).toHaveCount(0);
  await seats.fill("5");
  await expect(page.getByRole("alert").filter({ hasText: "at least 3" })).toHaveCount(0);
  await expect(summary).toContainText("2 extra seats");
  await expect(page).toHaveURL(/seats=5/);
});

test("a Schools order above the top band, then below the minimum, says at least 30", async ({
  page,
  api,
}) => {
  // Education plans are sold to a verified education address (spec 6, issue 18 item 2).
  const email = `seats-${Date.now().toString(36)}-${process.pid}@demo-school.edu`;
  await api.signUp({ email });
  await api.activate(email);
  await page.goto("/cart?p=buy&product=wv_k12_12m#checkout");
  await expect(heading(page)).toHaveText("Checkout");
  const seats = page.getByLabel("Seats", { exact: true });
  await seats.fill("50001");
  await expect(page.getByRole("link", { name: "Ask for a quote for 50001 seats" })).toBeVisible();
  await seats.fill("29");
  await expect(page.getByRole("alert").filter({ hasText: "at least 30" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Ask for a quote/ })).toHaveCount(0);
  await expect(page.getByRole("table", { name: "Order summary" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Pay \$/ })).toHaveCount(0);
});
