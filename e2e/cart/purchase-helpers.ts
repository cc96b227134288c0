// Steps the purchase scripts share: a new account for each test that changes state (so tests do
// not depend on each other), signing in to a demo account, and filling the sandbox card form.
import { expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "demo-password";

let counter = 0;

/** Signs up a new free account through the sign-up screen and returns its e-mail. */
export async function signUpNewAccount(page: Page, query = ""): Promise<string> {
  counter += 1;
  const email = `buyer-${Date.now()}-${process.pid}-${counter}@example.com`;
  await page.goto(`/cart/sign-up${query}`);
  await page.getByLabel("First name").fill("Pat");
  await page.getByLabel("Last name").fill("Buyer");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("secret-password");
  await page.getByRole("button", { name: "Sign up for free" }).click();
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Sign up");
  return email;
}

export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto("/cart/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/cart\/plans/);
}

export async function fillCard(page: Page, number: string): Promise<void> {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry month").fill("12");
  await page.getByLabel("Expiry year").fill(String(new Date().getFullYear() + 2));
  await page.getByLabel("Security code (CVC)").fill("123");
  await page.getByLabel("Card ZIP or postal code").fill("10001");
}

/** The total the order summary shows, as text ("$59.88"). */
export async function shownTotal(page: Page): Promise<string> {
  const total = page.getByTestId("total");
  await expect(total).toBeVisible();
  return (await total.textContent()) ?? "";
}
