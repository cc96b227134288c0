// The time a static page is built "as of". Normally the real clock; PAGES_NOW (an ISO date-time
// such as 2026-11-26T00:00:00Z, or milliseconds) builds the pages as they will be at another time:
// to preview a campaign before it opens, and in the browser tests of campaign windows.

export function buildTimeMs(
  env: Record<string, string | undefined>,
  clock: () => number = Date.now,
): number {
  const value = env.PAGES_NOW?.trim();
  if (!value) return clock();
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) {
    throw new Error(
      `PAGES_NOW is '${value}', which is not a time: write an ISO date-time such as 2026-11-26T00:00:00Z, or milliseconds since 1970.`,
    );
  }
  return ms;
}
