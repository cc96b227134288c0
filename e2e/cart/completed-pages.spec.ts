// A completed page for each kind of purchase (issue 34, item 4): seats added, a single export, a
// trial. (A plan's: checkout-trust.spec.ts, with the receipt line.)
import { expectNoAxeViolations } from "./account-helpers.ts";
import { expect, test } from "./api-helpers.ts";
import { fillCard } from "./purchase-helpers.ts";

test("seats added: how many, the team's seats now, and what was paid for the rest of the period", async ({
  page,
  api,
}) => {
  await api.signUp();
  await api.subscribe("wv_bizoct17_1m");
  await page.goto("/cart?p=buy&product=wv_bizoct17_1m&seats=5#checkout");
  const pay = page.getByRole("button", { name: /^Pay \$/ });
  await expect(pay).toBeVisible();
  const amount = ((await pay.textContent()) ?? "").replace(/^Pay /, "");
  if (await page.getByLabel("Card number").isVisible()) await fillCard(page, "4242 4242 4242 4242");
  await pay.click();
  await expect(page.getByTestId("completed-headline")).toHaveText(
    `You added 2 seats: your team now has 5. Paid ${amount} for the rest of this month.`,
  );
  await expectNoAxeViolations(page, "completed, seats added");
});

test("a single export: the credit is ready, and the editor is a click away", async ({
  page,
  api,
}) => {
  await api.signUp();
  await page.goto("/cart?product=single_export_4k#checkout_single_export");
  const pay = page.getByRole("button", { name: /^Pay \$/ });
  await expect(pay).toBeVisible();
  await fillCard(page, "4242 4242 4242 4242");
  await pay.click();
  await expect(page.getByTestId("completed-headline")).toHaveText(
    /^Your export credit is ready: paid \$\d+\.\d{2}\. Open the editor and export your video\.$/,
  );
  await expect(page.getByTestId("next-renewal")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Go to the editor" })).toBeVisible();
  // Readable in a real 320 px window (no device emulation): nothing scrolls sideways.
  await page.setViewportSize({ width: 320, height: 700 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(320);
});

test("a trial: until when, and what happens when it ends", async ({ page, api }) => {
  const email = await api.signUp();
  await api.activate(email);
  await api.startTrial("business");
  await page.goto("/cart#biztrial-account-completed");
  await expect(page.getByTestId("trial-status")).toContainText(
    /When it ends on \w+ \d{1,2}, \d{4}, your account moves to the free plan unless you choose a plan; nothing is charged\./,
  );
});
