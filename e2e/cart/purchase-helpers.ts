// Steps the purchase scripts share: a new account for each test that changes state (so tests do
// not depend on each other), signing in to a demo account, and filling the sandbox card form.
import { expect, type Locator, type Page } from "@playwright/test";
import { actAsNewVisitor } from "./account-helpers.ts";

export const DEMO_PASSWORD = "demo-password";

let counter = 0;

/**
 * Presses a sign-up or sign-in button as a person would when the server says "Too many attempts
 * in a short time" (its per-address limit, which every test on this machine shares): waits the
 * Retry-After it gives, then presses again. Returns once an answer other than 429 arrived.
 */
export async function pressPastRateLimit(page: Page, button: Locator): Promise<void> {
  for (let attempt = 0; attempt < 30; attempt++) {
    const [answer] = await Promise.all([
      page.waitForResponse((r) => /\/api\/5\/auth\/sign(up|in)$/.test(new URL(r.url()).pathname)),
      button.click(),
    ]);
    if (answer.status() !== 429) return;
    const seconds = Number(answer.headers()["retry-after"] ?? "2");
    await page.waitForTimeout(Math.max(1, seconds) * 1000 + 100);
  }
  throw new Error("the server kept refusing with 429 Too Many Requests");
}

/** Signs up a new free account through the sign-up screen and returns its e-mail. */
export async function signUpNewAccount(page: Page, query = ""): Promise<string> {
  counter += 1;
  const email = `buyer-${Date.now()}-${process.pid}-${counter}@example.com`;
  await actAsNewVisitor(page);
  await page.goto(`/cart/sign-up${query}`);
  await page.getByLabel("First name").fill("Pat");
  await page.getByLabel("Last name").fill("Buyer");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("secret-password");
  await pressPastRateLimit(page, page.getByRole("button", { name: "Sign up for free" }));
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Sign up");
  return email;
}

export async function signIn(page: Page, email: string): Promise<void> {
  await actAsNewVisitor(page);
  await page.goto("/cart/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await pressPastRateLimit(page, page.getByRole("button", { name: "Sign in" }));
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
