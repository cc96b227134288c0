// Quote PDFs (/orders/quote.pdf) are the one unauthenticated request that makes the server work
// hard: pdf-lib lays out and embeds a font for each. Besides the per-client rate limit
// (quotePdfPerIp), each server renders a few a second and keeps the latest ones: the same quote
// asked again the same day (the same seats and organisation) is the same bytes, and requests
// beyond the bound are shed at once (429, Retry-After) rather than queued without end (issue 33
// item 11), so a flood of them from many addresses neither holds back sign-ins nor grows memory.
import type { Printable } from "../../domain/invoices/printable.ts";

export type QuotePdfLimits = {
  /** Renders running at once (their awaits, the renderer's first load, may overlap). */
  concurrency: number;
  /**
   * Renders started per second, sustained (as many at once after a pause). A render is mostly
   * synchronous work on the event loop, so a count at once bounds little: this bounds the share
   * of the server's time quotes may take, the rest staying for sign-ins and purchases.
   */
  perSecond: number;
  /** Rendered quotes kept (the most recently asked). */
  cacheEntries: number;
};

const QUOTE_PDF_LIMITS: QuotePdfLimits = { concurrency: 2, perSecond: 4, cacheEntries: 32 };

type Render = (printable: Printable, meta: { author: string }) => Promise<Uint8Array>;

/**
 * A renderer with those bounds; it answers the PDF, or null when the server is busy with others
 * (the caller answers 429 with Retry-After). `now` is real time in ms (not the server's clock,
 * which tests and local runs move): what is bounded is the machine's work.
 */
export function boundedQuotePdfs(
  render: Render,
  limits: QuotePdfLimits = QUOTE_PDF_LIMITS,
  now: () => number = () => performance.now(),
): (printable: Printable, meta: { author: string }) => Promise<Uint8Array> | null {
  // A Map keeps insertion order: re-inserting on a hit makes the first entry the oldest. A render
  // in progress is kept too, so identical requests at once share it.
  const cache = new Map<string, Promise<Uint8Array>>();
  let active = 0;
  // A token bucket of renders: full at perSecond, refilled at perSecond a second.
  let tokens = limits.perSecond;
  let refilledAt = now();
  const admit = (): boolean => {
    const at = now();
    tokens = Math.min(limits.perSecond, tokens + ((at - refilledAt) / 1000) * limits.perSecond);
    refilledAt = at;
    if (active >= limits.concurrency || tokens < 1) return false;
    tokens -= 1;
    return true;
  };
  return (printable, meta) => {
    const key = JSON.stringify([meta.author, printable]);
    const kept = cache.get(key);
    if (kept) {
      cache.delete(key);
      cache.set(key, kept);
      return kept;
    }
    if (!admit()) return null;
    active += 1;
    const made = render(printable, meta).finally(() => {
      active -= 1;
    });
    cache.set(key, made);
    made.catch(() => {
      if (cache.get(key) === made) cache.delete(key);
    });
    for (const oldest of cache.keys()) {
      if (cache.size <= limits.cacheEntries) break;
      cache.delete(oldest);
    }
    return made;
  };
}
