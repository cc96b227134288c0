// No dead ends (issue 34, item 5): each page a visitor reaches says what it is for and leads on.
import type { Page } from "@playwright/test";
import { expectNoAxeViolations } from "./account-helpers.ts";
import { expect, test } from "./api-helpers.ts";
import { fillCard } from "./purchase-helpers.ts";

const heading = (page: Page) => page.getByRole("heading", { level: 1 });

test("signing up from Try Business says the account is for the Business trial", async ({
  page,
}) => {
  await page.goto("/cart?p=trial&product=wv_bizoct17_12m&tier=business#checkout");
  await expect(heading(page)).toHaveText("Sign up");
  await expect(page.getByText("Create your account to start your Business trial")).toBeVisible();
  await expectNoAxeViolations(page, "sign up for the Business trial");
});

test("a signed-out visitor never reads 'Your current plan'", async ({ page }) => {
  await page.goto("/cart/plans");
  await expect(page.locator("[data-plan]").first()).toBeVisible();
  await expect(page.getByText(/Your current plan/)).toHaveCount(0);
});

test("verifying the e-mail from the education trial returns to the trial", async ({
  page,
  api,
}) => {
  // An address of the seeded school, unverified: the trial first asks to verify it.
  const email = `return-${Date.now().toString(36)}-${process.pid}@demo-school.edu`;
  await api.signUp({ email });
  await page.goto("/cart?p=trial&tier=education#checkout");
  await expect(heading(page)).toHaveText("Check your education email");
  // The three ways on have room between them.
  const ways = page.locator(".screen .actions").last();
  await expect(ways.getByRole("link")).toHaveCount(3);
  await page.getByRole("link", { name: "Verify my e-mail address" }).click();
  await expect(heading(page)).toHaveText("Activate your account");
  const mail = await api.latestMail(email, /^Your verification code/);
  await page.getByLabel("Verification code").fill(/(\d{6})/.exec(mail.subject)?.[1] ?? "");
  await page.getByRole("button", { name: "Verify" }).click();
  await page.getByRole("link", { name: "Continue" }).click();
  await expect(page).not.toHaveURL(/\/cart\/plans/);
  await expect(page).toHaveURL(/p=trial/);
});

test("Schools above the seats sold online says so in a sentence with the quote link", async ({
  page,
  api,
}) => {
  const email = `quote-${Date.now().toString(36)}-${process.pid}@demo-school.edu`;
  await api.signUp({ email });
  await api.activate(email);
  await page.goto("/cart?p=buy&product=wv_k12_12m&seats=50001#checkout");
  await expect(page.getByTestId("seats-quote")).toContainText(
    "50,001 seats are more than an online order takes: we make a quote for them instead.",
  );
  await expect(page.getByRole("link", { name: "Ask for a quote for 50001 seats" })).toHaveAttribute(
    "href",
    "/orders?seats=50001",
  );
  // No raw path, and no "Try again" that cannot help.
  await expect(page.getByText("/orders?seats=50001")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Try again" })).toHaveCount(0);
  await expectNoAxeViolations(page, "schools, a quote above the top band");
});

test("in a local run the wider product's pages answer with marked local stand-ins", async ({
  page,
}) => {
  const pages: [string, string][] = [
    ["/terms-of-use", "Terms of use"],
    ["/privacy", "Privacy"],
    ["/support", "Support"],
    ["/app", "The editor"],
    ["/app/editor?templateId=7", "The editor"],
    ["/api/4/rce/tokens", "Screen recorder"],
  ];
  for (const [path, name] of pages) {
    const answer = await page.goto(path);
    expect(answer?.status(), path).toBe(200);
    await expect(heading(page), path).toHaveText(name);
    await expect(page.getByText("Local stand-in", { exact: true }), path).toBeVisible();
  }
  await expectNoAxeViolations(page, "a local stand-in page");
});

test("Back after a purchase says the plan is yours and leads to the account, no 'Try again'", async ({
  page,
  api,
}) => {
  await api.signUp();
  await page.goto("/cart?p=buy&product=wv_unloct17_12m#checkout");
  await fillCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $95.88" }).click();
  await expect(heading(page)).toHaveText("Payment complete");
  await page.goBack();
  await expect(page.getByTestId("already-yours")).toContainText(
    "This plan is yours already: there is nothing more to pay.",
  );
  await expect(page.getByText(/You already have this plan/)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Try again" })).toHaveCount(0);
  await page.getByRole("link", { name: "Go to your account" }).click();
  await expect(heading(page)).toHaveText("Your account");
  await expect(page.getByTestId("account-plan")).toHaveText("Unlimited, billed annually");
});

test("inside the hub's frame at 375 px the Close control does not cover Sign Up", async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/dev/hub?cart=${encodeURIComponent("/cart/login")}`);
  const frame = page.frameLocator("#cart");
  const close = frame.getByRole("button", { name: "Close" });
  const signUp = frame.getByRole("link", { name: "Sign Up" });
  await expect(signUp).toBeVisible();
  const [a, b] = [await close.boundingBox(), await signUp.boundingBox()];
  if (!a || !b) throw new Error("Close or Sign Up has no box");
  const overlap =
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(overlap, `Close ${JSON.stringify(a)} and Sign Up ${JSON.stringify(b)}`).toBe(false);
});
