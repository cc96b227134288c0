// Shared by the account-flow browser tests (issue 10): the axe check and moving by keyboard.
// Accounts, sessions and the sandbox mailbox are in api-helpers.ts.
import { expect, type Locator, type Page } from "@playwright/test";
import { browserApi, DEMO_PASSWORD } from "./api-helpers.ts";

/** The axe check (e2e/axe.ts), here too for the specs that import it from this file. */
export { expectNoAxeViolations } from "../axe.ts";

/** Signs the page's context in through the API. (For a11y.spec.ts, not yet on the `api` fixture.) */
export async function signInViaApi(page: Page, email: string, password = DEMO_PASSWORD) {
  await browserApi(page.context()).signIn(email, password);
}

/** Verifies a new account's e-mail and activates it, through the API. (For a11y.spec.ts.) */
export async function activateViaApi(page: Page, email: string): Promise<void> {
  await browserApi(page.context()).activate(email);
}

/** Presses Tab until `target` has the focus (at most `limit` times), as a keyboard user would. */
export async function tabTo(page: Page, target: Locator, limit = 30): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}
