// Team actions (issue 10): a member leaves the team; the owner closes the team (disband, members
// detached) or closes it deleting its members. Each behind a confirmation that says what happens
// and when; each updates the account shown without a page load. Every team is the test's own.
import type { Page } from "@playwright/test";
import { api as contract } from "../../src/contract/index.ts";
import { expectNoAxeViolations } from "./account-helpers.ts";
import { callTo, expect, test } from "./api-helpers.ts";

async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });
}
async function expectSamePage(page: Page): Promise<void> {
  expect(
    await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
  ).toBe(true);
}

test("a member leaves the team, told first what they lose", async ({ people }) => {
  const { team, code } = await people.team("leave");
  const { page } = await people.member(code, "leaver");
  await page.goto("/cart/home");
  await expect(page.getByTestId("account-team")).toHaveText(`${team} (member)`);
  await markPage(page);

  await page.getByRole("button", { name: "Leave the team" }).click();
  const confirmation = page.getByRole("region", { name: "Leave the team?" });
  await expect(confirmation).toContainText(
    `You leave the team workspace ${team} now and lose access to its plan and shared projects. Your own account stays, on the free plan unless you buy one.`,
  );
  await expectNoAxeViolations(page, "leave the team, confirmation");
  await page.getByRole("button", { name: "Leave the team now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "You left the team." })).toBeVisible();
  await expect(page.getByTestId("account-team")).toHaveCount(0);
  await expect(page.getByTestId("account-plan")).toHaveText("Free");
  await expectSamePage(page);
});

test("the owner closes the team: members are detached and keep their accounts", async ({
  people,
}) => {
  const {
    team,
    code,
    owner: { page: ownerPage },
  } = await people.team("close");
  const member = await people.member(code, "detached");
  await ownerPage.goto("/cart/home");
  await expect(ownerPage.getByTestId("account-team")).toHaveText(`${team} (owner)`);
  await markPage(ownerPage);

  await ownerPage
    .getByRole("button", { name: "Close the team and switch to the free plan" })
    .click();
  const confirmation = ownerPage.getByRole("region", {
    name: "Close the team and switch to the free plan?",
  });
  await expect(confirmation).toContainText(`The team workspace ${team} closes now, not on`);
  await expect(confirmation).toContainText(
    "its members are detached from it and keep their own accounts",
  );
  await expectNoAxeViolations(ownerPage, "close the team, confirmation");
  await ownerPage.getByRole("button", { name: "Close the team now" }).click();
  await expect(
    ownerPage.getByRole("status").filter({
      hasText:
        "The team is closed and your account is on the free plan. Its members keep their own accounts.",
    }),
  ).toBeVisible();
  await expect(ownerPage.getByTestId("account-team")).toHaveCount(0);
  await expect(ownerPage.getByTestId("account-plan")).toHaveText("Free");
  await expectSamePage(ownerPage);

  const info = await member.api.userInfo();
  expect(info).toMatchObject({ success: true, enterpriseMember: false });
});

test("the owner closes the team and deletes members who never paid", async ({ people }) => {
  const {
    team,
    code,
    owner: { page: ownerPage },
  } = await people.team("delete");
  const member = await people.member(code, "deleted");
  await ownerPage.goto("/cart/home");
  await markPage(ownerPage);
  await ownerPage.getByRole("button", { name: "Close the team and delete members" }).click();
  const confirmation = ownerPage.getByRole("region", {
    name: "Close the team and delete members?",
  });
  await expect(confirmation).toContainText(
    `The team workspace ${team} closes now. Members who never paid lose their accounts and projects; members who paid for their own account keep it, detached from the team.`,
  );
  await ownerPage.getByRole("button", { name: "Close the team and delete members" }).last().click();
  await expect(
    ownerPage
      .getByRole("status")
      .filter({ hasText: "The team is closed and its members are removed." }),
  ).toBeVisible();
  await expect(ownerPage.getByTestId("account-team")).toHaveCount(0);
  await expectSamePage(ownerPage);
  // Its session went with the account: the user info call answers "not signed in" (401).
  expect(await member.api.attempt(contract.userInfo)).toMatchObject({
    ok: true,
    status: 401,
    value: { success: false },
  });
});

test("delete members that the server does not confirm says 'Fail to get Delete Members!'", async ({
  people,
}) => {
  const {
    team,
    owner: { page: ownerPage },
  } = await people.team("delete-fails");
  await ownerPage.route(callTo(contract.disbandInstance), (route) =>
    route.fulfill({ json: { success: "false", productCode: "wv_free" } }),
  );
  await ownerPage.goto("/cart/home");
  await ownerPage.getByRole("button", { name: "Close the team and delete members" }).click();
  await ownerPage.getByRole("button", { name: "Close the team and delete members" }).last().click();
  await expect(ownerPage.getByRole("alert")).toHaveText("Fail to get Delete Members!");
  await expect(ownerPage.getByTestId("account-team")).toHaveText(`${team} (owner)`);
});
