// Nothing on the checkout moves under the reader's eyes (UX.md, issue 9's goal of a layout shift
// of at most 0.01): the plans screen and the checkout, loaded on a phone-sized screen and
// followed until the card fields have mounted, add up the browser's own layout-shift entries.
// Shifts are geometry, not time, so this is a test; the Lighthouse figures are in `npm run bench`.
import type { Page } from "@playwright/test";
import { CONTROL } from "../../src/domain/catalog/control.ts";
import { hrefFor } from "../../src/domain/checkout/screens.ts";
import { groupFor } from "../../src/domain/experiments/assignment.ts";
import { catalog } from "../pages/fixtures.ts";
import { expect, test } from "./api-helpers.ts";

// Lighthouse's mobile screen (Moto G Power): the size at which the bench measures.
test.use({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });

const GOAL = 0.01;

/** Starts recording every layout shift not caused by input, from the first paint of each page. */
async function recordShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: { value: number; sources: string[] }[] = [];
    (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node | null }[];
      }[]) {
        if (entry.hadRecentInput) continue;
        const sources = (entry.sources ?? []).map((s) =>
          s.node instanceof Element ? `${s.node.tagName}.${s.node.className}` : "?",
        );
        shifts.push({ value: entry.value, sources });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

async function shifts(page: Page): Promise<{ total: number; sources: string[] }> {
  // Two frames after the last change, so the observer has reported everything.
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );
  const list = await page.evaluate(
    () => (window as unknown as { __shifts: { value: number; sources: string[] }[] }).__shifts,
  );
  return {
    total: list.reduce((sum, s) => sum + s.value, 0),
    sources: list.map((s) => `${s.value.toFixed(3)} ${s.sources.join(",")}`),
  };
}

test.beforeEach(async ({ page, api }) => {
  await api.signIn("free@demo.test");
  await recordShifts(page);
});

test("the plans screen does not move while it loads", async ({ page }) => {
  await page.goto(`${hrefFor("plans", undefined, { via: "hash" })}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("Loading", { exact: false })).toHaveCount(0);
  await page.waitForLoadState("networkidle");
  const { total, sources } = await shifts(page);
  expect(total, sources.join("; ")).toBeLessThanOrEqual(GOAL);
});

test("the checkout does not move while it loads, also when the card fields mount", async ({
  page,
}) => {
  await page.goto(hrefFor("checkout", { product: "wv_single_12m" }, { via: "hash" }));
  await expect(page.getByLabel("Card number")).toBeVisible();
  await expect(page.getByText(/Total/).first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  const { total, sources } = await shifts(page);
  expect(total, sources.join("; ")).toBeLessThanOrEqual(GOAL);
});

// The static plans page carries every group's prices of a plan under a price experiment; the head
// script names the visitor's group on <html> before the first paint (decision 0090), so a visitor
// of any group, the variant's above all, sees a page that never moves. Both groups of the
// catalogue's running experiment, on the visitor's clock inside its window.
test("the static plans page does not move for a visitor of each price experiment group", async ({
  page,
  context,
  baseURL,
}) => {
  const experiment = catalog.experiments?.find((x) => x.to > Date.now());
  if (experiment === undefined) throw new Error("the catalogue has no price experiment to come");
  await page.clock.setFixedTime(experiment.from + 86_400_000);
  const groups = [...experiment.groups.map((g) => g.set).filter((g) => g !== CONTROL), CONTROL];
  for (const group of groups) {
    let i = 0;
    while (groupFor(experiment, `0e2e0000-0000-4000-8000-${String(i).padStart(12, "0")}`) !== group)
      i += 1;
    const visitorId = `0e2e0000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    // A visitor the server has not settled yet: the page decides from the visitor id alone.
    await context.clearCookies({ name: "xp" });
    await context.addCookies([{ name: "vid", value: visitorId, url: baseURL ?? "" }]);
    await page.goto("/plans");
    await expect(page.locator("html")).toHaveAttribute("data-xp", `${experiment.id}:${group}`);
    await page.waitForLoadState("networkidle");
    const { total, sources } = await shifts(page);
    expect(total, `${group}: ${sources.join("; ")}`).toBeLessThanOrEqual(GOAL);
  }
});
