// The shared chrome of spec 2.6 (header and footer) and the FAQ disclosure widgets.
import { expect, test } from "@playwright/test";
import { catalog } from "./fixtures.ts";

test("the footer shows the visitor's current year even on a page built in another year", async ({
  page,
}) => {
  await page.clock.setFixedTime(Date.UTC(2031, 5, 15));
  await page.goto("/plans");
  await expect(page.getByRole("contentinfo")).toContainText("© 2031");
});

test("the footer's terms-of-use and privacy links open in a new tab", async ({ page }) => {
  await page.goto("/faq");
  const footer = page.getByRole("contentinfo");
  for (const [name, href] of [
    [/Terms of use/, "/terms-of-use"],
    [/Privacy/, "/privacy"],
  ] as const) {
    const link = footer.getByRole("link", { name });
    await expect(link).toHaveAttribute("href", href);
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", /noopener/);
  }
});

test("the logged-out header has Pricing, sign-up links per tier and login", async ({ page }) => {
  await page.goto("/");
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" }),
  ).toHaveAttribute("href", "/pricing");
  const signUp = page.getByRole("navigation", { name: "Sign up:" });
  for (const tier of ["personal", "business", "education"]) {
    await expect(signUp.getByRole("link", { name: new RegExp(tier, "i") })).toHaveAttribute(
      "href",
      `/cart?tier=${tier}#signup`,
    );
  }
  await expect(page.getByRole("link", { name: "Log in" })).toHaveAttribute("href", "/sign-in");
});

test("each FAQ list is a set of disclosure widgets that open by keyboard", async ({ page }) => {
  await page.goto("/faq");
  for (const heading of ["Plans and billing", "Education", "Interactive learning video"]) {
    await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
  }
  const first = catalog.faqs.general?.[0];
  if (!first) throw new Error("The catalogue has no general FAQ");
  const answer = page.getByText(first.answer.slice(0, 40));
  await expect(answer).toBeHidden();
  await page.getByText(first.question).focus();
  await page.keyboard.press("Enter");
  await expect(answer).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(answer).toBeHidden();
  const count = Object.values(catalog.faqs).flat().length;
  await expect(page.locator("details")).toHaveCount(count);
});
