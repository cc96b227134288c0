// What the visual checks read off a static page in the browser (decision 0026): its sections
// (the blocks a person reads as one thing: the header, the heading, each plan card, the
// testimonials, each FAQ list, the footer), and the layout facts that need no pixels: nothing
// scrolls sideways, no two boxes overlap, nothing is shown outside a section, and the key elements
// are on the first screen.
import type { Page } from "@playwright/test";

/**
 * The sections of the static pages, each compared with its baseline on its own. Only visible ones
 * count (the other tabs' panels are display: none). Every visible piece of content must be inside
 * one of them (`layoutProblems`), so a new block of the page cannot go unchecked.
 */
export const SECTION_SELECTORS = [
  "body > header.site-header",
  "main .wrap > h1",
  "main .wrap > .intro",
  "main .wrap > .banner",
  "main .wrap > .controls",
  "main .panel > h2",
  "main article.card",
  "main .quotes",
  "main .extras",
  "main .faq > section",
  "body > footer.site-footer",
];

export type Box = { x: number; y: number; width: number; height: number };
export type Section = Box & {
  name: string;
  /** What a person reads in it (innerText, spaces squashed): the same in any browser build. */
  text: string;
};

/** The visible sections in document order, named by their kind and heading, in page pixels. */
export async function readSections(page: Page): Promise<Section[]> {
  return page.evaluate((selectors) => {
    const seen = new Map<string, number>();
    const all = [...document.querySelectorAll<HTMLElement>(selectors.join(","))];
    return all
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => {
        const kind =
          el.tagName === "ARTICLE"
            ? "card"
            : el.tagName === "HEADER"
              ? "header"
              : el.tagName === "FOOTER"
                ? "footer"
                : el.tagName === "H1"
                  ? "heading"
                  : el.tagName === "H2"
                    ? "panel heading"
                    : (el.className.split(" ")[0] ?? "") || el.tagName.toLowerCase();
        // Named by the heading it carries (a card by its plan), else its image's text.
        const heading = el.matches("h1, h2") ? el : el.querySelector("h1, h2, h3");
        const title = heading?.textContent ?? el.querySelector("img")?.alt ?? "";
        const plain = kind === "heading" || kind === "header" || kind === "footer";
        let name = plain ? kind : `${kind} ${title.trim()}`;
        name = name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, "-")
          .replace(/^-|-$/g, "");
        const n = (seen.get(name) ?? 0) + 1;
        seen.set(name, n);
        if (n > 1) name = `${name}-${n}`;
        const r = el.getBoundingClientRect();
        return {
          name,
          text: el.innerText.replace(/\s+/g, " ").trim(),
          x: r.left + window.scrollX,
          y: r.top + window.scrollY,
          width: r.width,
          height: r.height,
        };
      });
  }, SECTION_SELECTORS);
}

/**
 * Layout faults a person would notice, whatever the pixels: the page scrolls sideways, two
 * sections overlap, two blocks inside a section overlap, something is shown outside every section,
 * or one of the `firstScreen` elements (selectors; the first visible match of each) is not on the
 * first screen. The page must be scrolled to the top.
 */
export async function layoutProblems(page: Page, firstScreen: string[]): Promise<string[]> {
  return page.evaluate(
    ({ sections, firstScreen }) => {
      const problems: string[] = [];
      const width = window.innerWidth;
      const height = window.innerHeight;
      const describe = (el: Element) => {
        const cls = el.getAttribute("class")?.split(" ").filter(Boolean).join(".");
        const text = (el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
        return `<${el.tagName.toLowerCase()}${cls ? `.${cls}` : ""}> "${text}"`;
      };
      const visible = (el: Element) => {
        const r = el.getBoundingClientRect();
        if (r.width < 2 || r.height < 2) return false;
        const style = getComputedStyle(el);
        return style.visibility !== "hidden" && style.clipPath !== "inset(50%)";
      };
      // Overlap by more than a pixel each way: borders that touch are not an overlap.
      const overlap = (a: DOMRect, b: DOMRect) =>
        Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
        Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;

      const scrollWidth = document.documentElement.scrollWidth;
      if (scrollWidth > width) {
        problems.push(`the page scrolls sideways: ${scrollWidth} px of content in ${width} px`);
      }
      const list = [...document.querySelectorAll(sections.join(","))].filter(visible);
      for (const el of list) {
        const r = el.getBoundingClientRect();
        if (r.left < -0.5 || r.right > width + 0.5) {
          problems.push(`${describe(el)} reaches outside the window (${r.left}..${r.right})`);
        }
      }
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) {
          const a = list[i] as Element;
          const b = list[j] as Element;
          if (a.contains(b) || b.contains(a)) continue;
          if (overlap(a.getBoundingClientRect(), b.getBoundingClientRect()))
            problems.push(`${describe(a)} and ${describe(b)} overlap`);
        }
      }
      // Inside each section, the blocks side by side or one under the other (three levels deep:
      // a card's price, calculator, button and list; a grid's items) must not overlap either.
      // Inline text flows around itself (inline-blocks such as buttons are boxes and count), and
      // positioned layers (popovers) float by design.
      const blocks = (el: Element) =>
        [...el.children].filter((child) => {
          const style = getComputedStyle(child);
          return (
            visible(child) &&
            style.display !== "inline" &&
            style.display !== "contents" &&
            style.position !== "absolute" &&
            style.position !== "fixed"
          );
        });
      const inside = (el: Element, depth: number) => {
        const children = blocks(el);
        for (let i = 0; i < children.length; i++) {
          for (let j = i + 1; j < children.length; j++) {
            const a = children[i] as Element;
            const b = children[j] as Element;
            if (overlap(a.getBoundingClientRect(), b.getBoundingClientRect()))
              problems.push(`${describe(a)} and ${describe(b)} overlap`);
          }
          // A block cut off by its parent's edge is a broken layout too.
          const r = (children[i] as Element).getBoundingClientRect();
          const p = el.getBoundingClientRect();
          if (r.left < p.left - 1 || r.right > p.right + 1)
            problems.push(`${describe(children[i] as Element)} sticks out of ${describe(el)}`);
        }
        if (depth > 1) for (const child of children) inside(child, depth - 1);
      };
      for (const el of list) inside(el, 3);
      // Content a person sees must belong to a section, or no baseline would cover it.
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || !(node.textContent ?? "").trim() || !visible(parent)) continue;
        if (parent.closest("script, style, .skip, [popover]")) continue;
        if (!list.some((section) => section.contains(parent)))
          problems.push(`${describe(parent)} is outside every compared section`);
      }
      for (const el of document.querySelectorAll("img, svg, input, button, select, textarea")) {
        if (!visible(el) || el.closest(".skip, [popover]")) continue;
        if (!list.some((section) => section.contains(el)))
          problems.push(`${describe(el)} is outside every compared section`);
      }
      for (const selector of firstScreen) {
        const el = [...document.querySelectorAll(selector)].find(visible);
        if (!el) continue;
        const r = el.getBoundingClientRect();
        if (r.top < 0 || r.bottom > height)
          problems.push(
            `${describe(el)} is not on the first screen (${Math.round(r.top)}..${Math.round(r.bottom)} of ${height} px)`,
          );
      }
      return [...new Set(problems)];
    },
    { sections: SECTION_SELECTORS, firstScreen },
  );
}

/** How each section sits relative to the one before it: under it, or beside it in a row. */
export function arrangement(sections: readonly Section[]): string[] {
  return sections.map((s, i) => {
    const before = sections[i - 1];
    if (!before) return `${s.name}: first`;
    return `${s.name}: ${s.y >= before.y + before.height - 1 ? "below" : "beside"} ${before.name}`;
  });
}
