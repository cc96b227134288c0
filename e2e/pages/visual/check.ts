// The visual check of one static page at one width against its committed baseline (decision
// 0026): the page's sections in the same order and arrangement, each where it was sideways, each
// one's text as it was, and each one's pixels as they were within the tolerances of compare.ts. The page's full height is
// never compared: a line one pixel taller in a new Chromium moves everything below it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import { compareImages } from "./compare.ts";
import { crop, decodePng, encodePng, type Image } from "./png.ts";
import { arrangement, readSections, type Section } from "./sections.ts";

export const BASELINES = join(import.meta.dirname, "..", "screenshots.spec.ts-screenshots");

type Manifest = {
  /** The Chromium the baseline was taken with, for the reader: it is not compared. */
  browser: string;
  sections: Section[];
  arrangement: string[];
};

/** A section's pixels, its box rounded to whole pixels of the full-page image. */
function cut(image: Image, box: Section): Image {
  const x = Math.round(box.x);
  const y = Math.round(box.y);
  return crop(image, x, y, Math.round(box.x + box.width) - x, Math.round(box.y + box.height) - y);
}

/**
 * What differs between the open page and the baseline `key` (empty: nothing). With
 * `mayWrite`, the baseline is written where Playwright's --update-snapshots asks for it ("all",
 * or "changed" when it differs) or where none exists yet (which still fails: look at it first).
 * The checks of the check itself pass `mayWrite: false`: a page changed on purpose must never
 * become a baseline.
 */
export async function visualDifferences(
  page: Page,
  key: string,
  testInfo: TestInfo,
  { mayWrite }: { mayWrite: boolean },
): Promise<string[]> {
  // Scrolled to the top so that the boxes and the full-page image share one origin.
  await page.evaluate(() => window.scrollTo(0, 0));
  const sections = await readSections(page);
  const shot = await page.screenshot({ fullPage: true, animations: "disabled", caret: "hide" });
  const actual = decodePng(shot);
  const png = join(BASELINES, `${key}.png`);
  const json = join(BASELINES, `${key}.json`);
  const manifest: Manifest = {
    browser: page.context().browser()?.version() ?? "unknown",
    sections,
    arrangement: arrangement(sections),
  };
  const write = () => {
    mkdirSync(BASELINES, { recursive: true });
    writeFileSync(png, shot);
    writeFileSync(json, `${JSON.stringify(manifest, null, 2)}\n`);
  };
  const update = testInfo.config.updateSnapshots;
  if (mayWrite && update === "all") {
    write();
    return [];
  }
  if (!existsSync(png) || !existsSync(json)) {
    if (mayWrite && update !== "none") {
      write();
      return [`no baseline for ${key}: written to ${png}; look at it, then commit it`];
    }
    return [`no baseline for ${key}`];
  }
  const baseline = decodePng(readFileSync(png));
  const expected = JSON.parse(readFileSync(json, "utf8")) as Manifest;

  const problems: string[] = [];
  const names = new Set(sections.map((s) => s.name));
  const expectedNames = new Set(expected.sections.map((s) => s.name));
  for (const s of expected.sections)
    if (!names.has(s.name)) problems.push(`section ${s.name} is gone`);
  for (const s of sections)
    if (!expectedNames.has(s.name)) problems.push(`section ${s.name} is new`);
  const now = new Set(manifest.arrangement);
  for (const line of expected.arrangement) {
    const [name] = line.split(":");
    const current = manifest.arrangement.find((l) => l.startsWith(`${name}:`));
    if (current && !now.has(line)) problems.push(`arrangement: was "${line}", now "${current}"`);
  }
  for (const want of expected.sections) {
    const got = sections.find((s) => s.name === want.name);
    if (!got) continue;
    // The words and figures, which no rendering changes: a digit in the small print is too few
    // pixels for the tolerant comparison below, never too few for this.
    if (got.text !== want.text) {
      let at = 0;
      while (got.text[at] === want.text[at]) at++;
      const around = (text: string) => text.slice(Math.max(0, at - 20), at + 20);
      problems.push(
        `section ${want.name} reads "…${around(got.text)}…" where it read "…${around(want.text)}…"`,
      );
    }
    // Sideways position is layout (columns, centring), not font metrics: two pixels of slack.
    if (Math.abs(got.x - want.x) > 2)
      problems.push(`section ${want.name} moved sideways from x=${want.x} to x=${got.x}`);
    const before = cut(baseline, want);
    const after = cut(actual, got);
    const result = compareImages(before, after);
    if (result.difference === null) continue;
    problems.push(`section ${want.name}: ${result.difference}`);
    const file = (what: string) => testInfo.outputPath(`${key}-${want.name}-${what}.png`);
    writeFileSync(file("expected"), encodePng(before));
    writeFileSync(file("actual"), encodePng(after));
    if (result.diff) writeFileSync(file("diff"), encodePng(result.diff));
  }
  if (problems.length > 0 && mayWrite && update === "changed") {
    write();
    return [];
  }
  return problems;
}
