// Shared by the account-flow browser tests (issue 10): the axe check and moving by keyboard.
// Accounts, sessions and the sandbox mailbox are in api-helpers.ts.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";
import { browserApi, DEMO_PASSWORD } from "./api-helpers.ts";

/** Signs the page's context in through the API. (For a11y.spec.ts, not yet on the `api` fixture.) */
export async function signInViaApi(page: Page, email: string, password = DEMO_PASSWORD) {
  await browserApi(page.context()).signIn(email, password);
}

/** Verifies a new account's e-mail and activates it, through the API. (For a11y.spec.ts.) */
export async function activateViaApi(page: Page, email: string): Promise<void> {
  await browserApi(page.context()).activate(email);
}

export async function expectNoAxeViolations(page: Page, state: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`,
  );
  expect(summary, state).toEqual([]);
}

/** Presses Tab until `target` has the focus (at most `limit` times), as a keyboard user would. */
export async function tabTo(page: Page, target: Locator, limit = 30): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}
