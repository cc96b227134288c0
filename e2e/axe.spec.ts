// The axe check of every spec (e2e/axe.ts) reports what axe-core finds: a page of our own with
// known violations fails it, on a page without frames (axe run in the page) and inside a frame
// (AxeBuilder), and a clean page passes. Without this, a helper that found nothing would pass
// every "no axe violations" test.
import { expect, test } from "@playwright/test";
import { axeViolations } from "./axe.ts";

const broken = `<!doctype html><html lang="en"><head><title>Broken</title></head><body><main>
  <h1>Broken</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button></button>
  <p style="color:#777;background:#888">Hard to read</p></main></body></html>`;
const clean = `<!doctype html><html lang="en"><head><title>Clean</title></head><body><main>
  <h1>Clean</h1><img alt="A dot" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
  <button>Go</button></main></body></html>`;

const ids = (lines: string[]) => lines.map((line) => line.split(" ")[0]).sort();

test("a page without frames: each violation is reported, a clean page passes", async ({ page }) => {
  await page.setContent(broken);
  expect(page.frames()).toHaveLength(1);
  const found = await axeViolations(page);
  expect(ids(found)).toEqual(["button-name", "color-contrast", "image-alt"]);
  expect(found.join("\n")).toContain("img");
  // The same page checked again (axe already injected) reports the same.
  expect(ids(await axeViolations(page))).toEqual(ids(found));
  // Limited to one part of the page, only that part's.
  expect(ids(await axeViolations(page, { include: "button" }))).toEqual(["button-name"]);
  await page.setContent(clean);
  expect(await axeViolations(page)).toEqual([]);
});

test("a page with a frame: the frame's violations are reported", async ({ page }) => {
  // Two documents of one made-up origin, served by the test: a page and the broken one in a frame.
  await page.route("http://axe.test/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: route.request().url().endsWith("/inner")
        ? broken
        : `<!doctype html><html lang="en"><head><title>Framed</title></head><body><main>
          <h1>Framed</h1><iframe id="inner" title="Inner" src="/inner"></iframe></main></body></html>`,
    }),
  );
  await page.goto("http://axe.test/outer");
  await expect(page.frameLocator("#inner").getByRole("heading")).toHaveText("Broken");
  expect(page.frames()).toHaveLength(2);
  const inFrame = ["button-name", "color-contrast", "image-alt"];
  expect(ids(await axeViolations(page, { include: "#inner" }))).toEqual(inFrame);
  // The whole page: the frame's, and the page's own (two main landmarks, the frame's and its own).
  expect(ids(await axeViolations(page))).toEqual([...inFrame, "landmark-unique"].sort());
});
