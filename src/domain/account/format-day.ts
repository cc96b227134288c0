/** A date as people read it, in UTC as the server keeps periods: "March 3, 2026". */
export function formatDay(ms: number | null): string | null {
  return ms === null
    ? null
    : new Date(ms).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
}
