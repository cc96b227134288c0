// Visual checks of the static pages that hold across Chromium builds and still catch what a person
// would notice (decision 0026, issue 17). At 375, 768 and 1280 pixels wide each page is compared
// with its baseline in screenshots.spec.ts-screenshots/ section by section (visual/check.ts):
// a changed price, colour or missing section fails, a line one pixel taller does not, and the
// page's full height is never compared. At 320, 375, 768 and 1280 pixels the layout is checked
// without pixels (visual/sections.ts): nothing scrolls sideways, nothing overlaps, nothing shows
// outside a compared section, and the key elements are on the first screen. The last test changes
// a page on purpose, one change at a time, and proves the check fails on each kind of change and
// passes a 1-px reflow.
//
// What a page shows depends on the visitor's clock (the inline script shows campaign prices and
// banners inside their windows, and writes the footer's year), so the browser's clock is set to
// one fixed time. Animations are stopped and the caret hidden; fonts are the system's (Debian's,
// on this machine and in CI). e2e/README.md says how to update the baselines.
import { expect, type Page, test } from "@playwright/test";
import { visualDifferences } from "./visual/check.ts";
import { layoutProblems, readSections, type Section } from "./visual/sections.ts";

const PAGES: [string, string][] = [
  ["plans", "/plans"],
  ["plans-business-monthly", "/plans/business"],
  ["plans-education", "/plans/education"],
  ["pricing", "/pricing"],
  ["faq", "/faq"],
];
/** Baselines at these widths; the layout is checked at these and at the narrowest phone's. */
const WIDTHS = [375, 768, 1280];
const LAYOUT_WIDTHS = [320, ...WIDTHS];
/** A common screen height for each width: what "the first screen" means. */
const HEIGHTS: Record<number, number> = { 320: 568, 375: 667, 768: 1024, 1280: 800 };

/** The visitor's clock in every check: the footer reads 2026. */
const VISITED_AT = new Date("2026-06-15T12:00:00Z");

/**
 * What a person must see without scrolling, where the page has it: the header, the heading and
 * the plan chooser; from 375 px on (667 px tall and more) also the first plan's name.
 */
function firstScreen(width: number): string[] {
  const always = ["body > header.site-header", "main h1", "main .wrap > .controls"];
  return width < 375 ? always : [...always, "main article.card h3"];
}

async function open(page: Page, name: string, path: string, width: number): Promise<void> {
  await page.clock.setFixedTime(VISITED_AT);
  await page.setViewportSize({ width, height: HEIGHTS[width] ?? 900 });
  await page.goto(path);
  if (name.endsWith("-monthly")) await page.getByRole("radio", { name: /^Monthly/ }).check();
  await expect(page.locator("[data-year]")).toHaveText("2026");
}

// Both checks of a page at a width read one load of it (several checks of one state share one
// load: e2e/README.md): the layout first, soft, so that a layout fault and a visual difference
// are both reported; the visual check then scrolls to the top and takes its screenshot. Each width
// is a load of its own, not a resize of one load: the page is laid out as a visitor of that width
// first sees it.
for (const [name, path] of PAGES) {
  for (const width of LAYOUT_WIDTHS) {
    const visual = WIDTHS.includes(width);
    const title = visual
      ? `${name} at ${width}px: nothing scrolls sideways or overlaps, the key parts on the first screen, and it looks as it did`
      : `${name} at ${width}px: nothing scrolls sideways or overlaps, the key parts on the first screen`;
    test(title, async ({ page }, testInfo) => {
      await open(page, name, path, width);
      expect.soft(await layoutProblems(page, firstScreen(width)), "layout").toEqual([]);
      if (!visual) return;
      const key = `${name}-${width}`;
      expect(
        await visualDifferences(page, key, testInfo, { mayWrite: true }),
        "looks as it did",
      ).toEqual([]);
    });
  }
}

// The check itself: each kind of change a person would notice fails it, and a reflow by a pixel,
// which is what a new Chromium build brings, passes. On the page whose baselines a Chromium patch
// release broke (issue 17), at the width where it has cards side by side.
//
// All on one load of that page (several checks of one state share one load: e2e/README.md,
// decision 0069): each change is made, checked and undone in a step of its own, and before the
// next step the page must read and lie exactly as it came (every section's text and box, and no
// style sheet added), so no step sees another's change. The checks of a step are soft, so that
// every kind of change the check misses is reported, each under its step's name.
test("the visual check passes a reflow by a pixel and fails each change a person would notice", async ({
  page,
}, testInfo) => {
  const [name, path, width] = ["plans-education", "/plans/education", 768] as const;
  const key = `${name}-${width}`;
  const teacher = "section card-teacher";
  /** Puts the page back as it was before a change. */
  type Undo = () => Promise<unknown>;
  // Half the one-check test's time limit for each of the seven checks below (each was a test of
  // its own), as they share a context and a load.
  test.setTimeout((7 * test.info().timeout) / 2);

  await open(page, name, path, width);
  const untouched = await readSections(page);
  // The colour change shows in no section's text or box: its style sheet must be gone too.
  const styleSheets = () => page.evaluate(() => document.styleSheets.length);
  const untouchedSheets = await styleSheets();
  const addStyle = async (content: string): Promise<Undo> => {
    const tag = await page.addStyleTag({ content });
    return () => tag.evaluate((el) => (el as Element).remove());
  };
  /** Makes a change and checks what it shows (`change`), then undoes it. */
  const proof = (title: string, change: () => Promise<Undo[]>) =>
    test.step(title, async () => {
      const undo = await change();
      for (const step of undo.reverse()) await step();
      expect(await readSections(page), `the page as it came, after "${title}"`).toEqual(untouched);
      expect(await styleSheets(), `no style left, after "${title}"`).toBe(untouchedSheets);
    });
  const differences = () => visualDifferences(page, key, testInfo, { mayWrite: false });

  await proof(
    "passes the page as it is, with a section one pixel lower and a line one pixel taller",
    async () => {
      const undo = await addStyle(`
        /* The tab's heading a pixel taller: the cards and everything below move down by one. */
        main .panel > h2 { padding-bottom: 1px; }
        /* One line of the Schools card one pixel taller, as in the Chromium 156 report. */
        main .calc .hint { padding-top: 1px; }
      `);
      // The reflow happened: the Schools card a pixel lower and a pixel taller, the testimonials
      // two pixels lower.
      const after = await readSections(page);
      const box = (sections: Section[], section: string) =>
        sections.find((s) => s.name === section);
      expect
        .soft(box(after, "card-schools")?.y)
        .toBeCloseTo((box(untouched, "card-schools")?.y ?? 0) + 1);
      expect
        .soft(box(after, "card-schools")?.height)
        .toBeCloseTo((box(untouched, "card-schools")?.height ?? 0) + 1);
      expect
        .soft(box(after, "quotes-what-customers-say")?.y)
        .toBeCloseTo((box(untouched, "quotes-what-customers-say")?.y ?? 0) + 2);
      expect.soft(await differences()).toEqual([]);
      expect.soft(await layoutProblems(page, firstScreen(width))).toEqual([]);
      return [undo];
    },
  );

  await proof("fails a changed price digit", async () => {
    const price = page.locator("article.card .price strong").filter({ visible: true }).first();
    await expect(price).toHaveText("$89.00");
    const undo = await changeText(price, "$89.00", "$88.00");
    expect
      .soft(await differences())
      .toEqual([
        expect.stringMatching(
          new RegExp(`^${teacher} reads ".*\\$88\\.00 /year.*" where it read ".*\\$89\\.00 /year`),
        ),
        expect.stringMatching(new RegExp(`^${teacher}: \\d+ pixels differ`)),
      ]);
    return [undo];
  });

  await proof("fails a changed digit in the small print", async () => {
    // The Schools card's extra-seat price, in the smallest text of the card.
    const note = page.locator("article.card .note").filter({ visible: true }).first();
    await expect(note).toContainText("$4.99");
    const undo = await changeText(note, "$4.99", "$4.98");
    // Too few pixels for the tolerant pixel comparison (decision 0026): the text catches it.
    expect
      .soft(await differences())
      .toEqual([expect.stringMatching(/^section card-schools reads .*\$4\.98/)]);
    return [undo];
  });

  await proof("fails a changed colour", async () => {
    // The buy buttons green instead of the brand's violet.
    const undo = await addStyle(".btn { background: #0a6b35 !important; }");
    expect
      .soft(await differences())
      .toEqual([
        expect.stringMatching(new RegExp(`^${teacher}: \\d+ pixels differ`)),
        expect.stringMatching(/^section card-schools: \d+ pixels differ/),
      ]);
    return [undo];
  });

  await proof("fails a missing section", async () => {
    const quotes = await page.locator("#panel-education .quotes").evaluateHandle((el) => {
      const [parent, next] = [el.parentNode, el.nextSibling];
      el.remove();
      return { el, parent, next };
    });
    const undo = () =>
      quotes.evaluate(({ el, parent, next }) => {
        parent?.insertBefore(el, next);
      });
    expect.soft(await differences()).toContain("section quotes-what-customers-say is gone");
    return [undo];
  });

  await proof("fails a broken layout", async () => {
    // The cards one under the other, full width, instead of side by side.
    const undo = await addStyle("main .cards { display: block; }");
    const problems = await differences();
    expect
      .soft(problems)
      .toContain(
        'arrangement: was "card-schools: beside card-teacher", now "card-schools: below card-teacher"',
      );
    expect
      .soft(problems)
      .toContainEqual(expect.stringMatching(/^section card-teacher: \d+ px wide/));
    return [undo];
  });

  await proof(
    "the layout checks fail overlapping boxes, a page that scrolls sideways and a heading pushed off the first screen",
    async () => {
      // The Schools seat calculator pulled up over the price above it.
      const overlap = await addStyle("main .card > .calc { margin-top: -80px; }");
      expect
        .soft(await layoutProblems(page, firstScreen(width)))
        .toContainEqual(expect.stringMatching(/<form\.calc> .* overlap/));
      await overlap();
      const sideways = await addStyle("main .cards { grid-template-columns: 500px 500px; }");
      expect
        .soft(await layoutProblems(page, firstScreen(width)))
        .toContainEqual(expect.stringMatching(/^the page scrolls sideways/));
      const pushedDown = await addStyle("main .wrap > h1 { margin-top: 1100px; }");
      expect
        .soft(await layoutProblems(page, firstScreen(width)))
        .toContainEqual(expect.stringMatching(/<h1> "Plans" is not on the first screen/));
      return [sideways, pushedDown];
    },
  );
});

/** Replaces `from` with `to` in an element's text; what puts the element back as it was. */
async function changeText(
  element: ReturnType<Page["locator"]>,
  from: string,
  to: string,
): Promise<() => Promise<unknown>> {
  const html = await element.evaluate((el) => el.innerHTML);
  await element.evaluate(
    (el, [a, b]) => {
      el.textContent = (el.textContent ?? "").replace(a, b);
    },
    [from, to] as const,
  );
  return () =>
    element.evaluate((el, original) => {
      el.innerHTML = original;
    }, html);
}
