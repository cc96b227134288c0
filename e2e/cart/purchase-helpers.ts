// Steps the purchase scripts share: filling the sandbox card form and reading the total. Accounts
// and sessions come from the `api` fixture (api-helpers.ts).
import { expect, type FrameLocator, type Page } from "@playwright/test";

/** An expiry date two years ahead, as the one expiry field takes it: "12 / 28". */
export function futureExpiry(): string {
  return `12 / ${String((new Date().getFullYear() + 2) % 100).padStart(2, "0")}`;
}

/** The ZIP code a US card is filled with: Portland, Oregon, whose sales tax is 0 %. */
export const TEST_ZIP = "97201";

/**
 * The sandbox card form; the card's ZIP is the billing address's (one field, not two). A US
 * address needs its state, the one its ZIP names (issue 33, item 6): Oregon for TEST_ZIP, chosen
 * when the State field is still on "Choose…", so the total stays the untaxed one.
 */
export async function fillCard(
  page: Page | FrameLocator,
  number: string,
  // The billing address's code, which the card uses too: "ZIP code" in the US, else "Postal code".
  postal: { label: "ZIP code" | "Postal code"; code: string; state?: string } = {
    label: "ZIP code",
    code: TEST_ZIP,
    state: "Oregon",
  },
): Promise<void> {
  const zip = page.getByLabel(postal.label, { exact: true });
  const state = page.getByRole("combobox", { name: "State", exact: true });
  if (postal.state && postal.label === "ZIP code" && (await state.inputValue()) === "") {
    // The State still on "Choose…": chosen once the ZIP is typed, so the complete address is
    // saved (and priced) now, not when the Pay button takes the focus.
    await zip.fill(postal.code);
    await state.selectOption({ label: postal.state });
    await expect(page.getByText("Address saved: the total includes any tax.")).toBeVisible();
    await fillCardFields(page, number);
    return;
  }
  // The address's state already chosen (or none asked): the code is typed last and keeps the
  // focus, as a person filling the form top to bottom leaves it.
  await fillCardFields(page, number);
  await zip.fill(postal.code);
}

async function fillCardFields(page: Page | FrameLocator, number: string): Promise<void> {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry date (MM / YY)").fill(futureExpiry());
  await page.getByLabel("Security code (CVC)").fill("123");
}

/** The total the order summary shows, as text ("$59.88"). */
export async function shownTotal(page: Page): Promise<string> {
  const total = page.getByTestId("total");
  await expect(total).toBeVisible();
  return (await total.textContent()) ?? "";
}

/**
 * Opens the bank's page (the sandbox's 3-D Secure stand-in) from the checkout's authentication
 * step while the typed card is being saved, and checks that it says nothing is charged.
 */
export async function openBankForSavedCard(page: Page): Promise<Page> {
  const step = page.getByRole("group", { name: "Payment authentication" });
  const opened = page.waitForEvent("popup");
  await step.getByRole("button", { name: "Open your bank's page" }).click();
  const bank = await opened;
  await expect(
    bank.getByText("Your card is being saved for later payments. Nothing is charged now."),
  ).toBeVisible();
  return bank;
}
