// Reading prices off the built plans page as a visitor's browser shows them: the page is opened
// with the browser's clock set (page.clock), so its one inline script picks each campaign price
// or regular price on that clock (docs/static-pages.md), and the seat calculator's live total is
// the script's own. For another time the clock is set again and the page's script run again
// (what a reload would do, without a reload per time). Only the words on the page are read;
// figures are parsed from the text.
import type { Page } from "@playwright/test";

/** What a plans page shows for one product code, in cents. */
export type StaticOffer = {
  /** The price of one term (the "billed $X" figure when the card shows a monthly equivalent). */
  termPrice: number;
  /** Seats the term price covers, when the card says so ("for 30 seats", "3 seats included"). */
  includedSeats: number | null;
  /** One extra seat for the term ("Extra seats $239.88/year each"), when the card sells them. */
  extraSeatPrice: number | null;
};

type RawOption = {
  codes: string[];
  strong: string;
  unit: string;
  detail: string;
  notes: string[];
  cardSeats: string;
  essentials: { code: string; text: string }[];
  shown: number;
};

/** "$1,234.56" → 123456; throws on anything else, so a changed wording fails loudly. */
export function dollarsToCents(text: string): number {
  const match = /^\$(\d{1,3}(?:,\d{3})*|\d+)\.(\d{2})$/.exec(text.trim());
  if (!match) throw new Error(`Not a price on the page: "${text}"`);
  return Number((match[1] ?? "").replaceAll(",", "")) * 100 + Number(match[2]);
}

const firstDollar = (text: string) => /\$[\d,]+\.\d{2}/.exec(text)?.[0] ?? null;
const count = (text: string) => Number(text.replaceAll(",", ""));

/** The figures of one price option, from its visible texts. */
export function offerOf(option: Omit<RawOption, "codes" | "essentials" | "shown">): StaticOffer {
  // "$4.99 /month" with "billed $59.88 yearly": the term is billed; the strong figure is per month.
  const billed = /billed (\$[\d,]+\.\d{2})/.exec(option.detail)?.[1];
  const termPrice = dollarsToCents(billed ?? option.strong);
  const forSeats = /for ([\d,]+) seats/.exec(option.detail)?.[1];
  const cardSeats = /([\d,]+) seats included/.exec(option.cardSeats)?.[1];
  const seats = forSeats ?? cardSeats;
  const extraNote = option.notes.find((n) => n.startsWith("Extra seats "));
  const extra = extraNote === undefined ? null : firstDollar(extraNote);
  return {
    termPrice,
    includedSeats: seats === undefined ? null : count(seats),
    extraSeatPrice: extra === null ? null : dollarsToCents(extra),
  };
}

/** Opens a page with the visitor's clock at `atMs`. */
export async function openAt(page: Page, url: string, atMs: number): Promise<void> {
  await page.clock.setFixedTime(atMs);
  await page.goto(url);
}

/**
 * Moves the visitor's clock of the open page to `atMs` and runs the page's enhancement script
 * again (the experiment head script has named the visitor's groups once, at the first paint).
 */
export async function showAt(page: Page, atMs: number): Promise<void> {
  await page.clock.setFixedTime(atMs);
  await page.evaluate(() => {
    const inline = [...document.scripts].filter(
      (s) => !s.src && !s.type && !s.hasAttribute("data-experiments"),
    );
    if (inline.length !== 1) throw new Error(`${inline.length} inline scripts on the page`);
    // The page's own script, unchanged: it reads the clock with Date.now().
    new Function(inline[0]?.textContent ?? "")();
  });
}

/**
 * Every offer of the open plans page as the visitor's browser shows it now: the code it buys,
 * and its figures. Exactly one price of each option must be shown (the regular one or one
 * campaign's, of the visitor's experiment group where a price experiment prices the option);
 * anything else is a broken page and throws.
 */
export async function readOffers(page: Page, atMs: number): Promise<Map<string, StaticOffer>> {
  const url = page.url();
  const raw: RawOption[] = await page.locator("article.card .opt").evaluateAll((options) =>
    options.map((option) => {
      const text = (el: Element | null | undefined) =>
        (el?.textContent ?? "").replace(/\s+/g, " ").trim();
      const productOf = (href: string | null) =>
        href === null ? null : new URL(href, location.href).searchParams.get("product");
      const card = option.closest("article.card");
      const ownLink = productOf(
        option.querySelector(":scope > a.btn")?.getAttribute("href") ?? null,
      );
      // A banded option is bought through the card's seat calculator, whose form names the code.
      const formCode =
        card?.querySelector<HTMLInputElement>('form.calc input[name="product"]')?.value ?? null;
      const codes = ownLink !== null ? [ownLink] : formCode !== null ? [formCode] : [];
      // The price blocks: the regular one (a plain div) and each campaign's (.deal), of each
      // experiment group where there are groups ([data-xg], shown by the page's CSS).
      // (Shown within the option: its tab or billing mode may be the one not open now.)
      const seen = (el: Element) => {
        for (let e: Element | null = el; e !== null && e !== option; e = e.parentElement) {
          if (getComputedStyle(e).display === "none") return false;
        }
        return true;
      };
      const blocks = [
        ...option.querySelectorAll(":scope > div:not([data-xg]), :scope > [data-xg] > div"),
      ];
      const shown = blocks.filter(seen);
      const block = shown[0];
      return {
        codes,
        strong: text(block?.querySelector(".price strong")),
        unit: text(block?.querySelector(".price .unit")),
        detail: text(block?.querySelector(".detail")),
        notes: [...option.querySelectorAll(":scope > .note, :scope > [data-xg] > .note")]
          .filter(seen)
          .map((n) => text(n)),
        cardSeats: text(card?.querySelector(":scope > .seats")),
        essentials: [...option.querySelectorAll(":scope > .ess, :scope > [data-xg] > .ess")]
          .filter(seen)
          .map((ess) => ({
            code: productOf(ess.querySelector("a")?.getAttribute("href") ?? null) ?? "",
            text: text(ess),
          })),
        shown: shown.length,
      };
    }),
  );
  const offers = new Map<string, StaticOffer>();
  for (const option of raw) {
    const [code] = option.codes;
    if (code === undefined) throw new Error(`A price option of ${url} names no product`);
    if (option.shown !== 1) {
      throw new Error(
        `${url} at ${new Date(atMs).toISOString()} shows ${option.shown} prices of ${code}`,
      );
    }
    offers.set(code, offerOf(option));
    for (const ess of option.essentials) {
      // "With Essentials: $179.76/year (Essentials $119.88/year) Buy …": the plan with essentials.
      const price = firstDollar(ess.text);
      if (ess.code === "" || price === null)
        throw new Error(`Unreadable essentials offer: ${ess.text}`);
      offers.set(ess.code, {
        termPrice: dollarsToCents(price),
        includedSeats: null,
        extraSeatPrice: null,
      });
    }
  }
  return offers;
}

/**
 * The seat calculator's live total for each seat count (null where it shows no price, "–"), as
 * its inline script computes it when the visitor types the count.
 */
export async function readSeatCalculator(
  page: Page,
  seats: readonly number[],
): Promise<{ code: string; totals: Map<number, number | null> }> {
  const url = page.url();
  const code = await page.locator('form.calc input[name="product"]').getAttribute("value");
  if (code === null) throw new Error(`${url} has no seat calculator`);
  const shown = await page.locator("#seats").evaluate((input, counts) => {
    const field = input as HTMLInputElement;
    const output = document.getElementById("seats-total");
    return counts.map((n) => {
      field.value = String(n);
      field.dispatchEvent(new Event("input", { bubbles: true }));
      return output?.textContent?.trim() ?? "";
    });
  }, seats);
  const totals = new Map<number, number | null>();
  seats.forEach((n, i) => {
    const text = shown[i] ?? "";
    totals.set(n, text === "–" ? null : dollarsToCents(text));
  });
  return { code, totals };
}
