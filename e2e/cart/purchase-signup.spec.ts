// Signing up or in in the middle of a purchase, as a visitor does it: the plan, its period and its
// seats chosen on the plans screen are still chosen afterwards (UX: "the flow keeps its place").
// Signing up for free lands on free-account-completed. (Every link of the static pages is
// followed the same way in e2e/pages/cta.spec.ts.) These tests are about the sign-up and sign-in
// forms, so they type into them; every other browser test gets its account through the API
// (api-helpers.ts).
import type { Page } from "@playwright/test";
import { api as contract } from "../../src/contract/index.ts";
import { callTo, expect, test, uniqueEmail } from "./api-helpers.ts";

const heading = (page: Page) => page.getByRole("heading", { level: 1 });

async function fillSignUp(page: Page): Promise<void> {
  await page.getByLabel("First name").fill("Sam");
  await page.getByLabel("Last name").fill("Signer");
  await page.getByLabel("E-mail").fill(uniqueEmail("signer"));
  await page.getByLabel("Password").fill("secret-password");
  await page.getByRole("button", { name: "Sign up for free" }).click();
}

test("a visitor picks monthly Unlimited on the plans screen, signs up, and lands on its checkout", async ({
  page,
}) => {
  await page.goto("/cart/plans");
  await page.getByLabel("Monthly").check();
  await page
    .locator("[data-plan=wv_unloct17_1m]")
    .getByRole("link", { name: "Choose Unlimited" })
    .click();
  // Not signed in: the plans page's sign-up tab, the choice kept.
  await expect(heading(page)).toHaveText("Sign up");
  await expect(page).toHaveURL(/\/cart\/plans\?tab=signup&p=buy&product=wv_unloct17_1m/);
  await fillSignUp(page);
  await expect(heading(page)).toHaveText("Checkout");
  await expect(page).toHaveURL(/product=wv_unloct17_1m/);
  await expect(page.getByLabel("Monthly")).toBeChecked();
  await expect(page.getByTestId("total")).toHaveText("$15.99");
});

test("seats chosen before signing in are still chosen after", async ({ page }) => {
  await page.goto("/cart?p=buy&product=wv_bizoct17_1m&tier=business&seats=6#checkout");
  await expect(heading(page)).toHaveText("Sign up");
  await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
  await expect(heading(page)).toHaveText("Sign in");
  await page.getByLabel("E-mail").fill("free@demo.test");
  await page.getByLabel("Password").fill("demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(heading(page)).toHaveText("Checkout");
  await expect(page.getByLabel("Seats")).toHaveValue("6");
  await expect(page.getByRole("table", { name: "Order summary" })).toContainText("3 extra seats");
});

test("signing in on the auth screen goes on to the plan chosen", async ({ page }) => {
  await page.goto("/cart?p=buy&product=wv_single_12m&tier=personal#auth");
  await expect(heading(page)).toHaveText("Sign in");
  await page.getByLabel("E-mail").fill("free@demo.test");
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  // A failure says so and keeps what was typed.
  await expect(page.getByRole("alert")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue("free@demo.test");
  await page.getByLabel("Password").fill("demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(heading(page)).toHaveText("Checkout");
  await expect(page).toHaveURL(/product=wv_single_12m/);
});

test("signing up for free lands on the free account, with a loader while it runs", async ({
  page,
  api,
}) => {
  await page.goto("/cart?tier=personal#signup");
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(callTo(contract.signUp), async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel("First name").fill("Fay");
  await page.getByLabel("Last name").fill("Free");
  await page.getByLabel("E-mail").fill(uniqueEmail("free"));
  await page.getByLabel("Password").fill("secret-password");
  const answer = page.waitForResponse((r) => callTo(contract.signUp)(r.url()));
  await page.getByRole("button", { name: "Sign up for free" }).click();
  await expect(page.getByRole("button", { name: "Creating your account…" })).toBeDisabled();
  release();
  expect((await answer).status()).toBe(200);
  await expect(heading(page)).toHaveText("Your free account is ready");
  const context = await api.call(contract.userContext);
  expect(context.productCode).toBe("wv_free");
});

test("the sign-up page signs a new account up and lands on the free account", async ({
  page,
  api,
}) => {
  // /cart/sign-up, the path form of the sign-up screen (spec 2.2), where the other browser tests
  // used to make their accounts.
  await page.goto("/cart/sign-up");
  await expect(heading(page)).toHaveText("Sign up");
  await fillSignUp(page);
  await expect(heading(page)).toHaveText("Your free account is ready");
  const context = await api.call(contract.userContext);
  expect(context.productCode).toBe("wv_free");
});
