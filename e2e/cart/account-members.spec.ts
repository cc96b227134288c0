// A team owner's members on the account page (issue 34, item 3): each member with Remove behind a
// confirmation saying what happens and from when; once removed, their seat is free and they lose
// the team's plan at once. Every team is the test's own.
import { expectNoAxeViolations } from "./account-helpers.ts";
import { expect, test } from "./api-helpers.ts";

test("the owner sees the members and removes one, who loses the team's plan at once", async ({
  people,
}) => {
  const {
    team,
    code,
    owner: { page, email: ownerEmail },
  } = await people.team("members");
  const member = await people.member(code, "removed");
  const stays = await people.member(code, "stays");
  await page.goto("/cart/home");
  const card = page.getByRole("region", { name: "Your team" });
  await expect(card.getByTestId("account-seats")).toHaveText("3 of 3 seats used");
  const members = card.getByRole("region", { name: "Members" });
  await expect(members.getByRole("listitem")).toHaveCount(3);
  await expect(members.getByRole("listitem").filter({ hasText: ownerEmail })).toContainText(
    "Owner (you)",
  );
  // The owner cannot remove themself: no Remove on their row.
  await expect(
    members.getByRole("listitem").filter({ hasText: ownerEmail }).getByRole("button"),
  ).toHaveCount(0);
  await expectNoAxeViolations(page, "account page, team members");

  await members
    .getByRole("listitem")
    .filter({ hasText: member.email })
    .getByRole("button", { name: "Remove" })
    .click();
  const confirmation = page.getByRole("region", { name: "Remove Pat Tester from the team?" });
  await expect(confirmation).toBeFocused();
  await expect(confirmation).toContainText(
    `Pat Tester (${member.email}) leaves the team workspace ${team} now and loses its plan and shared projects at once. Their seat is free for someone else from now on; the seats you pay for stay as they are.`,
  );
  await expectNoAxeViolations(page, "account page, remove a member, confirmation");

  // Keep: nothing changes.
  await confirmation.getByRole("button", { name: "Keep Pat Tester" }).click();
  await expect(confirmation).toHaveCount(0);
  await expect(members.getByRole("listitem")).toHaveCount(3);

  await members
    .getByRole("listitem")
    .filter({ hasText: member.email })
    .getByRole("button", { name: "Remove" })
    .click();
  await confirmation.getByRole("button", { name: "Remove Pat Tester now" }).click();
  await expect(
    members.getByRole("status").filter({
      hasText: "Pat Tester is no longer in your team. Their seat is free.",
    }),
  ).toBeVisible();
  await expect(members.getByRole("listitem")).toHaveCount(2);
  await expect(members).not.toContainText(member.email);
  await expect(members).toContainText(stays.email);
  await expect(card.getByTestId("account-seats")).toHaveText("2 of 3 seats used");

  // The removed member is on the free plan now, on their own account page too.
  expect(await member.api.userInfo()).toMatchObject({ enterpriseMember: false });
  await member.page.goto("/cart/home");
  await expect(member.page.getByTestId("account-plan")).toHaveText("Free");
  await expect(member.page.getByTestId("account-team")).toHaveCount(0);
});

test("the members list does not scroll sideways in a 320 px window", async ({ people }) => {
  const {
    code,
    owner: { page },
  } = await people.team("members-narrow");
  await people.member(code, "a-rather-long-address-for-a-narrow-window");
  await page.setViewportSize({ width: 320, height: 700 });
  await page.goto("/cart/home");
  const members = page.getByRole("region", { name: "Members" });
  await expect(members.getByRole("listitem")).toHaveCount(2);
  await members.getByRole("button", { name: "Remove" }).click();
  await expect(
    page.getByRole("region", { name: "Remove Pat Tester from the team?" }),
  ).toBeVisible();
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
});
