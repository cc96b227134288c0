import { describe, expect, it } from "vitest";
import { buildTimeMs } from "./build-time.ts";

describe("buildTimeMs", () => {
  it("is the clock unless PAGES_NOW is set", () => {
    expect(buildTimeMs({}, () => 42)).toBe(42);
    expect(buildTimeMs({ PAGES_NOW: " " }, () => 42)).toBe(42);
  });

  it("reads PAGES_NOW as an ISO date-time or milliseconds", () => {
    expect(buildTimeMs({ PAGES_NOW: "2019-11-29T05:00:00Z" })).toBe(Date.UTC(2019, 10, 29, 5));
    expect(buildTimeMs({ PAGES_NOW: "1575003600000" })).toBe(1575003600000);
  });

  it("says what to write when PAGES_NOW is not a time", () => {
    expect(() => buildTimeMs({ PAGES_NOW: "next friday" })).toThrowErrorMatchingInlineSnapshot(
      `[Error: PAGES_NOW is 'next friday', which is not a time: write an ISO date-time such as 2026-11-26T00:00:00Z, or milliseconds since 1970.]`,
    );
  });
});
