// Single exports honour 720, 1080 and 2160 (spec 2.4 and 5; issue 22, item 10).
import { expectNoAxeViolations } from "./account-helpers.ts";
import { expect, test, uniqueEmail } from "./api-helpers.ts";

test("?2160=true selects the 4K export and offers only it", async ({ page, api }) => {
  await api.signUp({ email: uniqueEmail("export-4k"), password: "export-secret" });
  await page.goto("/cart?2160=true#checkout_single_export");
  await expect(page).toHaveURL(/product=single_export_4k/);
  await expect(page).toHaveURL(/2160=true/);
  await expect(page.getByRole("radio", { name: "4K (2160p)" })).toBeChecked();
  await expect(page.getByRole("radio", { name: "HD (1080p)" })).toHaveCount(0);
  await expect(page.getByTestId("total")).toHaveText("$4.99");
  await expectNoAxeViolations(page, "single export, 2160");
  // A link naming HD with 2160=true still gets the 4K export.
  await page.goto("/cart?2160=true&product=single_export_hd#checkout_single_export");
  await expect(page).toHaveURL(/product=single_export_4k/);
});

test("?1080=true and ?720=true offer HD and 4K, HD first; a choice keeps the filter", async ({
  page,
  api,
}) => {
  await api.signUp({ email: uniqueEmail("export-hd"), password: "export-secret" });
  for (const filter of ["1080", "720"]) {
    await page.goto(`/cart?${filter}=true#checkout_single_export`);
    await expect(page).toHaveURL(/product=single_export_hd/);
    await expect(page.getByRole("radio", { name: "HD (1080p)" })).toBeChecked();
    await expect(page.getByTestId("total")).toHaveText("$2.99");
    await page.getByRole("radio", { name: "4K (2160p)" }).check();
    await expect(page).toHaveURL(new RegExp(`${filter}=true.*product=single_export_4k`));
    await expect(page.getByTestId("total")).toHaveText("$4.99");
  }
});
