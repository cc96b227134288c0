// Invitations (issue 10): /cart/invite and /cart/invite/ never redirect; an invitation shows its
// team; joining says first what it does (and that it cancels a subscription, when it does); a
// refusal is said in words a person can act on. Every team here is the test's own.
import { api as contract } from "../../src/contract/index.ts";
import { expectNoAxeViolations } from "./account-helpers.ts";
import { expect, test, uniqueEmail } from "./api-helpers.ts";

test("/cart/invite and /cart/invite/ stay put for visitors and signed-in users, and take a code", async ({
  page,
  api,
}) => {
  for (const path of ["/cart/invite", "/cart/invite/"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Join your team");
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
  await expectNoAxeViolations(page, "invite without a code");
  await page.getByLabel("Invitation code").fill("../../client/4/instance/disband");
  await page.getByRole("button", { name: "Show the invitation" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "An invitation code has only letters, digits, - and _. Copy it from the invitation link.",
  );
  await page.getByLabel("Invitation code").fill("demo-invite");
  await page.getByRole("button", { name: "Show the invitation" }).click();
  await expect(page).toHaveURL(/\/cart\/invite\/demo-invite$/);
  await expect(
    page.getByText("Olivia Owner invited you to join the team workspace demo-team."),
  ).toBeVisible();

  await api.signIn("free@demo.test");
  await page.goto("/cart/invite/");
  await expect(page).toHaveURL(/\/cart\/invite\/$/);
  await expect(page.getByLabel("Invitation code")).toBeVisible();
});

test("an unknown invitation says so and what to do", async ({ page }) => {
  await page.goto("/cart/invite/no-such-invitation");
  await expect(page.getByRole("alert")).toHaveText(
    "This invitation does not exist or was withdrawn. Ask for a new invitation.",
  );
});

test("a visitor signs up from an invitation and joins the team", async ({ page, people }) => {
  const { team, code } = await people.team("invite-free");
  await page.goto(`/cart/invite/${code}`);
  await expect(
    page.getByText(`Pat Tester invited you to join the team workspace ${team}.`),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in to join" })).toHaveAttribute(
    "href",
    `/cart/login?redirect=%2Fcart%2Finvite%2F${code}`,
  );
  await expectNoAxeViolations(page, "invitation, visitor");

  // Signing up from the invitation is this test's subject: through the screens.
  const email = uniqueEmail("invitee");
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByLabel("First name").fill("Ines");
  await page.getByLabel("Last name").fill("Invitee");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("invitee-secret");
  await page.getByRole("button", { name: "Sign up for free" }).click();
  await expect(page).toHaveURL(new RegExp(`/cart/invite/${code}$`));

  await expect(
    page.getByText(`You join ${team} as ${email} now, and work under its plan.`),
  ).toBeVisible();
  await expect(page.getByText(/cancels your own subscription/)).toHaveCount(0);
  await expectNoAxeViolations(page, "invitation, signed in");
  await page.getByRole("button", { name: `Join ${team}` }).click();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: `You joined ${team}. Its plan now covers your account.` }),
  ).toBeVisible();
  await page.getByRole("link", { name: "See your account" }).click();
  await expect(page.getByTestId("account-team")).toHaveText(`${team} (member)`);
  await expect(page.getByTestId("account-plan")).toHaveText("Business");
});

test("a subscriber is told before confirming that joining cancels the subscription", async ({
  page,
  api,
  people,
}) => {
  const { team, code } = await people.team("invite-sub");
  await api.signUp({ email: uniqueEmail("invite-subscriber"), password: "subscriber-secret" });
  await api.subscribe("wv_unloct17_1m");
  await page.goto("/cart/home");
  const renews = (await page.locator("dt:text('Renews on') + dd").innerText()).trim();

  await page.goto(`/cart/invite/${code}`);
  await expect(
    page.getByText(
      `Joining ${team} cancels your own subscription: it will not renew on ${renews} and you are not charged for it again. From now on ${team}'s plan covers you.`,
    ),
  ).toBeVisible();
  const join = page.getByRole("button", { name: `Cancel my subscription and join ${team}` });
  await expect(join).toHaveAccessibleDescription(/cancels your own subscription/);
  await join.click();
  await expect(page.getByRole("status").filter({ hasText: `You joined ${team}.` })).toBeVisible();
  const context = await api.call(contract.userContext);
  expect(context).toMatchObject({ isUserEnterpriseMember: true, prevOrderState: "automatic" });
});

test("a full team is said in words, and nothing changes", async ({ page, api, people }) => {
  const { team, code } = await people.team("invite-full");
  // Business includes 3 seats: the owner's and two members'.
  await people.member(code, "first-member");
  await people.member(code, "second-member");
  await api.signUp({ email: uniqueEmail("third-member"), password: "third-secret" });
  await page.goto(`/cart/invite/${code}`);
  await page.getByRole("button", { name: `Join ${team}` }).click();
  await expect(page.getByRole("alert")).toHaveText(
    `${team} has no free seat left. Ask the team's owner to add seats, then open this invitation again.`,
  );
  await expectNoAxeViolations(page, "invitation refused");
  const context = await api.call(contract.userContext);
  expect(context).toMatchObject({ isUserEnterpriseMember: false, productCode: "wv_free" });
});
