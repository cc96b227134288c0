// The checkout app under /cart (issue 8): routing and not-found, the start-up loader, the redirect
// to sign-in and back, back and forward with focus on each new heading, and the hub demo.
import { expect, type Page, test } from "@playwright/test";
import { api as contract } from "../../src/contract/index.ts";
import { callTo } from "./api-helpers.ts";

const DEMO_PASSWORD = "demo-password";

/** Signs in on the sign-in screen. */
async function signIn(page: Page, email: string): Promise<void> {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test.describe("routes", () => {
  for (const path of ["/cart", "/cart#nothing-here", "/cart/nothing-here"]) {
    test(`${path} shows the not-found screen`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    });
  }

  test("an unknown path answers 404 with the app, a known one 200", async ({ request }) => {
    expect((await request.get("/cart/nothing-here")).status()).toBe(404);
    expect((await request.get("/cart/plans")).status()).toBe(200);
    expect((await request.get("/cart/invite/abc123")).status()).toBe(200);
  });

  test("public screens show to visitors by hash and by path", async ({ page }) => {
    await page.goto("/cart#plans");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Plans");
    await page.goto("/cart/what-for");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("What will you use it for?");
    await page.goto("/cart/new-password?vc=abc&email=pat%40example.com");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reset password");
    await expect(page.getByText("Create a new password for your account")).toBeVisible();
  });
});

test("shows only a loader until start-up has finished", async ({ page, request }) => {
  const html = await (await request.get("/cart/plans")).text();
  expect(html).toContain("Loading the checkout…");
  expect(html).not.toContain("<h1");
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(callTo(contract.sessionStatus), async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/cart/plans");
  await expect(page.getByRole("status").filter({ hasText: "Loading the checkout…" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(0);
  release();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Plans");
});

test("a screen that needs an account sends the visitor to sign in, then back", async ({ page }) => {
  await page.goto("/cart#cancel-trial");
  await expect(page).toHaveURL(/\/cart\/login\?redirect=/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
  await signIn(page, "trial@demo.test");
  await expect(page).toHaveURL(/\/cart#cancel-trial$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cancel trial");
});

test("back and forward move between screens, focus on each new heading", async ({ page }) => {
  await page.goto("/cart/what-for");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("What will you use it for?");
  await page.getByLabel("Work").check();
  // Continue submits the step (it saves the answer, then moves on): a button.
  await page.getByRole("button", { name: "Continue" }).click();
  const role = page.getByRole("heading", { level: 1, name: "What is your role?" });
  await expect(role).toBeFocused();
  await page.goBack();
  const whatFor = page.getByRole("heading", { level: 1, name: "What will you use it for?" });
  await expect(whatFor).toBeFocused();
  // The choice was kept (segmentationInfo, stored locally).
  await expect(page.getByLabel("Work")).toBeChecked();
  await page.goForward();
  await expect(role).toBeFocused();
});

test.describe("hub demo", () => {
  test("receives cart_navigation; a message from another origin changes nothing", async ({
    page,
  }) => {
    await page.goto("/dev/hub?cart=/cart%23plans");
    const events = page.locator("#events li");
    await expect(events.filter({ hasText: "cart_navigation" }).first()).toContainText(
      '"hash":"#plans"',
    );
    const frame = page.frameLocator("#cart");
    await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Plans");

    // A spoofed message: right shape, wrong origin. The checkout stays where it is: the listener
    // and a move it makes are synchronous, so right after the message the address is unchanged.
    // (The frame's own window: the hub page's address holds "/cart" too, in its query.)
    const cart = await (await page.locator("#cart").elementHandle())?.contentFrame();
    if (!cart) throw new Error("the checkout frame did not load");
    const [before, after] = await cart.evaluate(() => {
      const before = location.href;
      window.dispatchEvent(
        new MessageEvent("message", {
          origin: "https://evil.example",
          source: window.parent,
          data: {
            source: "hub",
            version: 1,
            event: "navigate",
            payload: { hash: "#cancel-trial" },
          },
        }),
      );
      return [before, location.href];
    });
    expect(after).toBe(before);
    await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Plans");

    // The real hub's message does move it, and the move is reported back.
    await page.getByLabel("Ask the checkout to show").fill("#signup");
    await page.getByRole("button", { name: "Send navigate" }).click();
    await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Sign up");
    await expect(events.filter({ hasText: '"hash":"#signup"' }).first()).toBeVisible();
    // The spoof was handled before the hub's own message arrived, and no move it asked for (nor
    // the sign-in that #cancel-trial would need) was ever reported.
    await expect(events.filter({ hasText: "cancel-trial" })).toHaveCount(0);
  });
});

test("in the extension flow, moving between screens keeps the extension's parameters", async ({
  page,
}) => {
  await page.goto("/cart/what-for?origin=rce");
  await page.getByLabel("Work").check();
  // Continue submits the step (it saves the answer, then moves on): a button.
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("What is your role?");
  const url = new URL(page.url());
  expect(url.pathname).toBe("/cart/what-role");
  expect(url.searchParams.get("origin")).toBe("rce");
  expect(url.searchParams.get("flow")).toBe("extension");
  expect(url.searchParams.has("avoidRedirecting")).toBe(true);
});
