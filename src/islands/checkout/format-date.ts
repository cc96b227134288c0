/** A date as the checkout says it: "March 5, 2027" (UTC, as the server's periods are). */
export function formatDate(ms: number): string {
  return new Date(ms).toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
}
