// The plans page in a browser: every price of spec section 9 as the spec writes it, the
// monthly/annual switch and the tabs (with and without JavaScript, by mouse and keyboard), and
// every call to action into the checkout.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { formatUsd, seatBandTotal, seatStructureFor } from "../../src/domain/pricing/index.ts";
import { catalog, planByCode, visibleText } from "./fixtures.ts";

type Mode = "Yearly" | "Monthly";

const card = (page: Page, title: string): Locator =>
  page.locator("article.card", {
    has: page.getByRole("heading", { level: 3, name: title, exact: true }),
  });

async function show(page: Page, tab: string, mode: Mode): Promise<void> {
  await page.getByRole("radio", { name: tab, exact: true }).check();
  const billing = page.getByRole("radio", { name: new RegExp(`^${mode}`) });
  if (await billing.isVisible()) await billing.check();
}

// Spec section 9, "Display prices": each row as the page writes it. The spec's figures are the
// numbers; the page adds the dollar sign, two decimals and the words around them.
const SPEC_PRICES: { tab: string; mode: Mode; card: string; texts: RegExp[] }[] = [
  { tab: "Personal", mode: "Yearly", card: "Flex", texts: [/\$29\.99 one-time valid 1 year/] },
  { tab: "Personal", mode: "Monthly", card: "Flex", texts: [/\$29\.99 one-time valid 1 year/] },
  {
    tab: "Personal",
    mode: "Monthly",
    card: "Power",
    texts: [/\$9\.99 \/month/, /With Essentials: \$29\.98\/month \(Essentials \$19\.99\/month\)/],
  },
  {
    tab: "Personal",
    mode: "Yearly",
    card: "Power",
    texts: [
      /\$4\.99 \/month billed \$59\.88 yearly/,
      /With Essentials: \$179\.76\/year \(Essentials \$119\.88\/year\)/,
    ],
  },
  {
    tab: "Personal",
    mode: "Monthly",
    card: "Unlimited",
    texts: [/\$15\.99 \/month/, /With Essentials: \$35\.98\/month \(Essentials \$19\.99\/month\)/],
  },
  {
    tab: "Personal",
    mode: "Yearly",
    card: "Unlimited",
    texts: [
      /\$7\.99 \/month billed \$95\.88 yearly/,
      /With Essentials: \$215\.76\/year \(Essentials \$119\.88\/year\)/,
    ],
  },
  { tab: "Personal", mode: "Monthly", card: "Professional", texts: [/\$39\.99 \/month/] },
  {
    tab: "Personal",
    mode: "Yearly",
    card: "Professional",
    texts: [/\$19\.99 \/month billed \$239\.88 yearly/],
  },
  {
    tab: "Business",
    mode: "Monthly",
    card: "Business",
    texts: [/\$73\.99 \/month/, /Extra seats \$39\.99\/month each/, /3 seats included/],
  },
  {
    tab: "Business",
    mode: "Yearly",
    card: "Business",
    texts: [
      /\$36\.99 \/month billed \$443\.88 yearly/,
      /Extra seats \$239\.88\/year each/,
      /3 seats included/,
    ],
  },
  // Schools: 374 for 30 seats (January 2024 structure, the default); seat price 4.99 in the sample.
  {
    tab: "Education",
    mode: "Yearly",
    card: "Schools",
    texts: [/\$374\.00 \/year for 30 seats/, /Extra seats \$4\.99/],
  },
];

// Every price check of /plans reads one load of it (several checks of one state share one load:
// e2e/README.md): first the page as it comes (the HTML without the sample prices, the extras),
// then each row of spec 9 in the tab and billing mode it names, each reached by the visitor's own
// clicks as on a fresh load (`show`). Soft, so that every row that differs is reported.
test.describe("spec section 9 prices on /plans", () => {
  test("every row, the single exports and export upgrades, and not the sample catalogue's or the older schools prices", async ({
    page,
    context,
    baseURL,
  }) => {
    // A visitor the server has said may not be enrolled in a price experiment (cookie xp "!"):
    // the default prices, whenever the test runs (e2e/pricing/experiment-prices.spec.ts shows
    // the groups of the catalogue's experiment).
    await context.addCookies([{ name: "xp", value: "!", url: baseURL ?? "" }]);
    await page.goto("/plans");
    await test.step("the sample catalogue's prices and the older schools structure are not the page's", async () => {
      // Both readings of spec 9 hold: the sample catalogue is the `sample` price set, shown only
      // to users of that price test, and 299 is the schools structure before January 2024. The
      // unit tests of the view models show them when asked (plan-card.test.ts). The page carries
      // a price experiment's `sample` prices for the visitors of that group only, in blocks of
      // that group that the page's CSS hides from everyone else (decision 0090).
      const html = await page.evaluate(() => {
        const body = document.body.cloneNode(true) as HTMLElement;
        for (const block of body.querySelectorAll('[data-xg$=":sample"]')) block.remove();
        return body.innerHTML;
      });
      const shown = await page.locator("body").innerText();
      for (const absent of ["$35.99", "$215.88", "$59.99", "$359.88", "$299.00"]) {
        expect.soft(html).not.toContain(absent);
        expect.soft(shown).not.toContain(absent);
      }
    });
    await test.step("single exports and export upgrades", async () => {
      const extras = await visibleText(page.getByRole("region", { name: "Extras" }));
      for (const expected of [
        /\$2\.99/,
        /\$4\.99/,
        /0\.5 hours for \$6\.00/,
        /1 hour for \$10\.00/,
        /2 hours for \$18\.00/,
      ]) {
        expect.soft(extras).toMatch(expected);
      }
    });
    for (const row of SPEC_PRICES) {
      await test.step(`${row.card}, ${row.tab} tab, ${row.mode}`, async () => {
        await show(page, row.tab, row.mode);
        const text = await visibleText(card(page, row.card));
        for (const expected of row.texts)
          expect.soft(text, `${row.card}, ${row.tab} tab, ${row.mode}`).toMatch(expected);
      });
    }
  });
});

test.describe("monthly/annual switch", () => {
  test("changes the prices and the products bought, by mouse and by keyboard", async ({ page }) => {
    await page.goto("/plans");
    const power = card(page, "Power");
    await expect(power.getByText("$4.99", { exact: true })).toBeVisible();
    await expect(power.getByText("$9.99", { exact: true })).toBeHidden();
    await expect(power.getByRole("link", { name: "Buy Power", exact: true })).toHaveAttribute(
      "href",
      /product=wv_single_12m/,
    );

    await page.getByRole("radio", { name: /^Monthly/ }).click();
    await expect(power.getByText("$9.99", { exact: true })).toBeVisible();
    await expect(power.getByText("$4.99", { exact: true })).toBeHidden();
    await expect(power.getByRole("link", { name: "Buy Power", exact: true })).toHaveAttribute(
      "href",
      /product=wv_single_1m/,
    );

    await page.getByRole("radio", { name: /^Monthly/ }).focus();
    await page.keyboard.press("ArrowLeft");
    await expect(page.getByRole("radio", { name: /^Yearly/ })).toBeChecked();
    await expect(power.getByText("$4.99", { exact: true })).toBeVisible();
  });
});

test.describe("audience tabs", () => {
  test("open by click and by arrow keys", async ({ page }) => {
    await page.goto("/plans");
    const panel = (name: string) => page.getByRole("region", { name });
    await expect(panel("Plans for individuals")).toBeVisible();
    await expect(panel("Plans for teams")).toBeHidden();
    await page.getByRole("radio", { name: "Business", exact: true }).click();
    await expect(panel("Plans for teams")).toBeVisible();
    await expect(panel("Plans for individuals")).toBeHidden();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("radio", { name: "Education", exact: true })).toBeChecked();
    await expect(panel("Plans for schools and teachers")).toBeVisible();
    // Education plans are billed yearly only: the switch has nothing to change there.
    await expect(page.getByRole("radio", { name: /^Monthly/ })).toBeHidden();
  });

  // Each address a load of its own, in one browser context (a visitor following the links).
  test("each tab's address opens it", async ({ page }) => {
    for (const [url, heading] of [
      ["/plans/business", "Plans for teams"],
      ["/plans/education", "Plans for schools and teachers"],
      ["/plans?tab=business", "Plans for teams"],
      ["/plans?tab=education", "Plans for schools and teachers"],
      ["/pricing?tab=business", "Plans for teams"],
    ] as const) {
      await test.step(`${url} opens "${heading}"`, async () => {
        await page.goto(url);
        await expect.soft(page.getByRole("region", { name: heading })).toBeVisible();
      });
    }
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the tabs and the switch still work, and every price is in the HTML", async ({ page }) => {
    await page.goto("/plans/business");
    const business = card(page, "Business");
    await expect(business.getByText("$36.99", { exact: true })).toBeVisible();
    await page.getByRole("radio", { name: /^Monthly/ }).check();
    await expect(business.getByText("$73.99", { exact: true })).toBeVisible();
    await page.getByRole("radio", { name: "Personal", exact: true }).check();
    await expect(card(page, "Power").getByText("$9.99", { exact: true })).toBeVisible();
  });

  test("the seat calculator orders the seats through the checkout", async ({ page }) => {
    await page.route("**/cart?**", (route) =>
      route.fulfill({ contentType: "text/html", body: "<title>cart</title>" }),
    );
    await page.goto("/plans/education");
    await page.getByRole("spinbutton", { name: "Number of seats" }).fill("45");
    await page.getByRole("button", { name: /seats$/ }).click();
    await expect(page).toHaveURL(
      /\/cart\?p=buy&product=wv_k12_12m&tier=education&seats=45#checkout$/,
    );
  });
});

test.describe("calls to action", () => {
  test("every card links into the checkout with the spec's parameters and the right product", async ({
    page,
  }) => {
    for (const path of ["/plans", "/pricing"]) {
      await page.goto(path);
      const cards = await page.locator("article.card").all();
      expect(cards.length).toBeGreaterThan(0);
      for (const plan of cards) {
        // Cards of closed tabs are hidden, so read the DOM rather than the accessibility tree.
        const title = (await plan.locator("h3").first().textContent()) ?? "";
        const options = await plan.locator(".opt").all();
        for (const option of options) {
          const classes = (await option.getAttribute("class")) ?? "";
          const mode = classes.includes("m-annual") ? 12 : classes.includes("m-monthly") ? 1 : null;
          for (const link of await option.locator("a").all()) {
            const url = new URL((await link.getAttribute("href")) ?? "", "http://x");
            expect(url.pathname, title).toBe("/cart");
            expect(["buy", "trial"], `${title} p`).toContain(url.searchParams.get("p"));
            const product = planByCode(url.searchParams.get("product") ?? "");
            expect(product.name, `${title}: ${url}`).toBe(title);
            expect(url.searchParams.get("tier")).toBe(product.tier);
            if (mode !== null) expect(product.termDuration, `${title}: ${url}`).toBe(mode);
            expect(["#checkout", "#signup"]).toContain(url.hash);
          }
        }
      }
    }
  });

  test("single exports open the single-export checkout", async ({ page }) => {
    await page.goto("/plans");
    for (const item of catalog.singleExports) {
      const href = await page.getByRole("link", { name: `Buy ${item.name}` }).getAttribute("href");
      expect(href).toBe(`/cart?p=buy&product=${item.code}&tier=personal#checkout_single_export`);
    }
  });
});

test.describe("seat calculator", () => {
  const schools = planByCode("wv_k12_12m");
  const found = seatStructureFor(catalog, schools);
  const structure = found.ok ? found.value : null;

  // One load: the totals across every band, then a count above the top band.
  test("shows the pricing module's total for seat counts across every band, and above the top band offers the quote link /orders?seats=N", async ({
    page,
  }) => {
    if (!structure) throw new Error("wv_k12_12m has no seat structure");
    await page.goto("/plans/education");
    const seats = page.getByRole("spinbutton", { name: "Number of seats" });
    const total = page.locator("#seats-total");
    const counts = new Set([structure.minimumSeats, structure.maximumSeats, 45, 777, 12_345]);
    for (const band of structure.bands) {
      for (const n of [band.from, band.to]) if (n >= structure.minimumSeats) counts.add(n);
    }
    for (const n of counts) {
      await seats.fill(String(n));
      const expected = seatBandTotal(structure, n);
      if (!expected.ok) throw new Error(expected.error.message);
      await expect(total, `${n} seats`).toHaveText(formatUsd(expected.total));
    }
    const over = structure.maximumSeats + 5;
    await seats.fill(String(over));
    await expect(page.locator("#seats-quote")).toHaveAttribute("href", `/orders?seats=${over}`);
    await expect(page.getByRole("button", { name: /seats$/ })).toBeHidden();
  });
});

test.describe("toggletips", () => {
  test("open from the keyboard, close with Escape, and describe their button", async ({ page }) => {
    await page.goto("/plans");
    const plan = planByCode("wv_unloct17_12m");
    const item = plan.description.find((d) => d.tooltip);
    if (!item?.tooltip) throw new Error("Unlimited has no tooltip in the catalogue");
    const button = card(page, "Unlimited").getByRole("button", { name: `About: ${item.text}` });
    await expect(button).toHaveAccessibleDescription(item.tooltip.text);
    const tip = page.getByText(item.tooltip.text);
    await expect(tip).toBeHidden();
    await button.focus();
    await page.keyboard.press("Enter");
    await expect(tip).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(tip).toBeHidden();
    await expect(button).toBeFocused();
  });
});
