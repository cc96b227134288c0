// Issue 23 in the browser: the "buying for an organisation" section of the checkout (a German
// company's VAT id makes the tax 0 % before paying), the invoice linked from payment-completed,
// and the account page's list of invoices with the PDF downloaded.

import { api as contract } from "../../src/contract/index.ts";
import { expectNoAxeViolations } from "./account-helpers.ts";
import { expect, test } from "./api-helpers.ts";
import { fillCard, shownTotal } from "./purchase-helpers.ts";

test("a German company buys with its VAT id: no VAT, and its invoice says why", async ({
  page,
  api,
}) => {
  test.setTimeout(90_000);
  await api.signUp({ firstName: "Ada" });
  await api.call(contract.address, {
    body: { name: "Ada Team", country: "DE", postalCode: "10115" },
  });
  await page.goto("/cart?p=buy&product=wv_single_12m#checkout");
  // The checkout's first load (the plan, its summary and the payment step's code) on a busy machine.
  await expect(page.getByTestId("total")).toBeVisible({ timeout: 20_000 });
  const taxed = await shownTotal(page);

  await page.getByText("Buying for an organisation").click();
  const form = page.getByRole("form", { name: "Organisation" });
  await form.getByLabel("Organisation name").fill("Beispiel GmbH");
  await form.getByLabel("VAT or tax id").fill("DE136695977");
  await form.getByRole("button", { name: "Save organisation" }).click();
  await expect(form.getByRole("alert")).toContainText(
    "DE136695977 is not a valid VAT id of Germany: its check digits do not match",
  );
  expect(await shownTotal(page)).toBe(taxed);

  await form.getByLabel("VAT or tax id").fill("DE 136 695 976");
  await form.getByLabel("Street address").fill("Hauptstraße 1");
  await form.getByLabel("City").fill("Berlin");
  await form.getByRole("button", { name: "Save organisation" }).click();
  await expect(form.getByRole("status")).toHaveText(
    "Saved. Reverse charge: no VAT is added; your organisation accounts for it.",
  );
  await expect(page.getByTestId("total")).not.toHaveText(taxed);
  const total = await shownTotal(page);
  expect(total).toBe("$59.88");

  await fillCard(page, "4242 4242 4242 4242", { label: "Postal code", code: "10115" });
  await page.getByRole("button", { name: `Pay ${total}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment complete");
  // The renewal is taxed as the invoice is: no VAT on it either.
  await expect(page.getByTestId("next-renewal")).toContainText(", $59.88 every year (no tax).");
  const link = page.getByRole("link", { name: "Download the invoice (PDF)" });
  await expect(link).toBeVisible();
  const download = page.waitForEvent("download");
  await link.click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^INV-\d{4}-\d{6}\.pdf$/);

  await page.getByRole("link", { name: "View it" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Invoice INV-\d{4}-\d{6}$/);
  await expect(page.getByRole("row", { name: /VAT \(reverse charge\)/ })).toContainText("0 %");
  await expect(
    page.getByText("Reverse charge: VAT to be accounted for by the recipient"),
  ).toBeVisible();
  await expect(page.getByText("Beispiel GmbH")).toBeVisible();
  await expect(page.getByText("Tax id: DE136695976")).toBeVisible();
  await expectNoAxeViolations(page, "invoice page");
});

test("the account page lists the invoices, each downloadable as a PDF", async ({ page, api }) => {
  test.setTimeout(90_000);
  await api.signUp();
  await api.subscribe("wv_single_12m");
  await page.goto("/cart/home");
  const list = page.getByRole("table", { name: "Your invoices and credit notes" });
  const row = list.getByTestId("invoice-row");
  // The account panel's code and the list load after the page: seconds on a busy machine.
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  await expect(row).toContainText(/INV-\d{4}-\d{6}/);
  await expect(row).toContainText("$59.88");
  const download = page.waitForEvent("download");
  await row.getByRole("link", { name: /^Download INV-.* \(PDF\)$/ }).click();
  const pdf = await download;
  const path = await pdf.path();
  const { readFileSync } = await import("node:fs");
  expect(readFileSync(path).subarray(0, 5).toString()).toBe("%PDF-");
  await expectNoAxeViolations(page, "account page with invoices");
});

test("a VAT id added on the account page takes the VAT off the renewal, and re-issues the invoice as a credit note and a new one", async ({
  page,
  api,
}) => {
  test.setTimeout(90_000);
  await api.signUp();
  await api.call(contract.address, {
    body: { name: "Kim Weber", country: "DE", postalCode: "10115" },
  });
  await api.subscribe("wv_single_12m");
  await page.goto("/cart/home");
  const rows = page
    .getByRole("table", { name: "Your invoices and credit notes" })
    .getByTestId("invoice-row");
  await expect(rows).toHaveCount(1, { timeout: 20_000 });
  // $59.88 and 19 % German VAT.
  await expect(rows).toContainText("$71.26");
  await expect(page.getByTestId("account-renewal-amount")).toHaveText(
    "$71.26 every year (tax included)",
  );

  await page.getByText("Buying for an organisation").click();
  const form = page.getByRole("form", { name: "Organisation" });
  await form.getByLabel("Organisation name").fill("Weber GmbH");
  await form.getByLabel("VAT or tax id").fill("DE136695976");
  await form.getByLabel(/Issue my earlier invoices again/).check();
  await form.getByRole("button", { name: "Save organisation" }).click();
  await expect(form.getByRole("status")).toHaveText(
    /^Saved\. Reverse charge: no VAT is added; your organisation accounts for it\. Issued again: INV-\d{4}-\d{6}\.$/,
  );
  await expect(page.getByTestId("account-renewal-amount")).toHaveText("$59.88 every year (no tax)");
  // The first invoice stays as it was, credited in full; the new one has the same figures.
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: "credit note of" })).toContainText("-$71.26");
  await expect(rows.filter({ hasText: "replaced:" })).toContainText("$71.26");
});
