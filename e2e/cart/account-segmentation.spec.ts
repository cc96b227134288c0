// Segmentation and the redirect pages (issue 10, spec 2.2, 2.5): the three steps keep their
// answers locally as JSON and, signed in, on the account; segmentation-info-redirect and
// template-redirect send the person on (never off the site); the expired-account and invalid-email
// pages; a blocked e-mail domain stops the flow.
import type { Page } from "@playwright/test";
import { api as contract } from "../../src/contract/index.ts";
import { expectNoAxeViolations, tabTo } from "./account-helpers.ts";
import { callTo, expect, test, uniqueEmail } from "./api-helpers.ts";

async function answerSteps(page: Page): Promise<void> {
  await page.goto("/cart/what-for");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("What will you use it for?");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert")).toHaveText("Choose one answer to continue.");
  await expectNoAxeViolations(page, "what-for, nothing chosen");
  await page.getByLabel("Work").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/cart\/what-role$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("What is your role?");
  await page.getByLabel("Teacher").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/cart\/about-you$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tell us about you");
  await page.getByLabel("Just me").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/cart\/plans\?tier=business$/);
}

const ANSWERS = { purpose: "Work", segment: "business", role: "Teacher", about: "Just me" };

test("a visitor answers the three steps; the answers stay in the browser as JSON", async ({
  page,
}) => {
  await answerSteps(page);
  const stored = await page.evaluate(() => localStorage.getItem("segmentationInfo"));
  expect(JSON.parse(stored ?? "null")).toEqual(ANSWERS);
  await page.goto("/cart/what-role");
  await expect(page.getByLabel("Teacher")).toBeChecked();
});

test("signed in, the answers are saved on the account too", async ({ page, api }) => {
  await api.signUp({ email: uniqueEmail("segments"), password: "segments-secret" });
  await answerSteps(page);
  const info = await api.userInfo();
  expect(info.properties.purpose).toBe("Work");
  expect(JSON.parse(info.properties.segmentationInfo ?? "null")).toEqual(ANSWERS);
});

test("an attribute the server refuses is only logged: the steps go on", async ({ page, api }) => {
  await api.signUp({ email: uniqueEmail("segments-fail"), password: "segments-secret" });
  await page.route(callTo(contract.setAttribute), (route) =>
    route.fulfill({ status: 500, json: { message: "down", error_code: "internal_error" } }),
  );
  const warnings: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "warning") warnings.push(m.text());
  });
  await page.goto("/cart/what-for");
  await page.getByLabel("School").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/cart\/what-role$/);
  expect(warnings.some((w) => w.startsWith("Could not save segmentationInfo"))).toBe(true);
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("segmentation-info-redirect starts the steps, or goes on once they are answered", async ({
  page,
}) => {
  await page.goto("/cart/segmentation-info-redirect?avoidRedirecting=true");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Setting up your account");
  await expect(page.getByRole("link", { name: "Start" })).toHaveAttribute("href", "/cart/what-for");
  await page.goto("/cart/segmentation-info-redirect");
  await expect(page).toHaveURL(/\/cart\/what-for$/);
  await page.evaluate(() =>
    localStorage.setItem("segmentationInfo", JSON.stringify({ segment: "education" })),
  );
  await page.goto("/cart/segmentation-info-redirect");
  await expect(page).toHaveURL(/\/cart\/plans\?tier=education$/);
});

test("template-redirect opens the product's own template path, and nothing else", async ({
  page,
}) => {
  await page.goto("/cart/template-redirect?templateId=tpl_42&avoidRedirecting=true");
  await expect(page.getByRole("link", { name: "Open the template" })).toHaveAttribute(
    "href",
    "/app?templateId=tpl_42",
  );
  await expectNoAxeViolations(page, "template redirect, avoidRedirecting");
  await page.goto("/cart/template-redirect?templateId=tpl_42");
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/app\?templateId=tpl_42$/);

  for (const hostile of [
    "//evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "%2F%2Fevil.example",
    "../../client/4/instance/disband",
    "tpl%0a//evil.example",
  ]) {
    await page.goto(`/cart/template-redirect?templateId=${encodeURIComponent(hostile)}`);
    await expect(page.getByRole("alert"), hostile).toHaveText(
      "This template link is not valid. Open the editor and choose the template there.",
    );
    await expect(page, hostile).toHaveURL(/\/cart\/template-redirect\?/);
  }
  await expectNoAxeViolations(page, "template redirect, refused");
});

test("an expired account is told so, with the plans a click away", async ({ page, api }) => {
  await api.signIn("expired@demo.test");
  await page.goto("/cart/expired-account");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account has expired");
  await expect(
    page.getByText("Your account has expired. Choose a plan to keep your projects."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "See the plans" })).toHaveAttribute(
    "href",
    "/cart/plans",
  );
  await expectNoAxeViolations(page, "expired account");
});

test("an unverified education e-mail goes to the invalid-email page", async ({ page, api }) => {
  await api.signIn("student-teacher@demo-school.edu");
  await page.goto("/cart?p=trial&product=wv_edu_trial#checkout");
  await expect(page).toHaveURL(
    /\/cart\/invalid-email\?p=trial&tier=education&product=wv_edu_trial$/,
  );
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check your education email");
  // Verifying comes back to the education trial (issue 22).
  await expect(page.getByRole("link", { name: "Verify my e-mail address" })).toHaveAttribute(
    "href",
    `/cart?redirect=${encodeURIComponent("/cart?p=trial&product=wv_edu_trial&tier=education#checkout")}#email-activation`,
  );
  await expectNoAxeViolations(page, "invalid education e-mail");
});

test("a blocked e-mail domain stops the flow with a clear message", async ({ page, api }) => {
  await api.signIn("blocked@mailinator.com");
  for (const href of ["/cart/home", "/cart#checkout", "/cart/what-for"]) {
    await page.goto(href);
    await expect(page.getByRole("heading", { level: 1 }), href).toHaveText(
      "This e-mail domain cannot be used",
    );
    await expect(
      page.getByText(
        "Accounts cannot use an e-mail address from this domain. Use another e-mail address.",
      ),
    ).toBeVisible();
  }
  await expectNoAxeViolations(page, "blocked domain");
});

test("a school district's addresses go to its student or staff page while the product is free", async ({
  page,
  api,
}) => {
  // The district of catalog/accounts.yaml (example domains); its pages are not on this site.
  await page.route("https://www.example-district.org/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<title>District</title><h1>District</h1>" }),
  );
  const stamp = `${Date.now().toString(36)}${process.pid}`;
  await api.signUp({ email: `staff-${stamp}@example-district.org`, password: "district-secret" });
  await page.goto("/cart/plans");
  await expect(page).toHaveURL("https://www.example-district.org/video/staff");

  await page.context().clearCookies();
  await api.signUp({
    email: `pupil-${stamp}@students.example-district.org`,
    password: "district-secret",
  });
  await page.goto("/cart#checkout");
  await expect(page).toHaveURL("https://www.example-district.org/video/students");
});

test("the steps can be answered with the keyboard alone", async ({ page }) => {
  await page.goto("/cart/what-for");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("What will you use it for?");
  // Tab reaches the radio group; the arrow keys choose within it; Enter submits the step.
  await tabTo(page, page.getByLabel("Work"));
  await expect(page.getByLabel("Work")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByLabel("School")).toBeChecked();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/cart\/what-role$/);
  await expect(page.getByRole("heading", { level: 1, name: "What is your role?" })).toBeFocused();
  const stored = await page.evaluate(() => localStorage.getItem("segmentationInfo"));
  expect(JSON.parse(stored ?? "null")).toMatchObject({ purpose: "School", segment: "education" });
});
