// Layout shifts as the browser reports them (the layout-shift entries of its PerformanceObserver),
// for the specs that hold a page to UX.md's goal of at most 0.01 (issue 9).
import type { Page } from "@playwright/test";

export const GOAL = 0.01;

/** Starts recording every layout shift not caused by input, from the first paint of each page. */
export async function recordShifts(page: Page): Promise<void> {
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

export async function shifts(page: Page): Promise<{ total: number; sources: string[] }> {
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
