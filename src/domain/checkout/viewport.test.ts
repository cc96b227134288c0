import { describe, expect, it } from "vitest";
import { MEDIA_QUERIES, viewportFlags } from "./viewport.ts";

describe("viewport flags (spec 2.6: breakpoints 768 and 1024)", () => {
  it.each([
    [320, { isMobile: true, isTablet: false }],
    [767, { isMobile: true, isTablet: false }],
    [767.5, { isMobile: true, isTablet: false }],
    [768, { isMobile: false, isTablet: true }],
    [1023, { isMobile: false, isTablet: true }],
    [1024, { isMobile: false, isTablet: false }],
    [1920, { isMobile: false, isTablet: false }],
    [0, { isMobile: true, isTablet: false }],
    [Number.NaN, { isMobile: false, isTablet: false }],
  ])("%d px → %o", (width, flags) => {
    expect(viewportFlags(width)).toEqual(flags);
  });

  it("offers the same bands as media queries", () => {
    expect(MEDIA_QUERIES).toEqual({
      mobile: "(max-width: 767.98px)",
      tablet: "(min-width: 768px) and (max-width: 1023.98px)",
    });
  });
});
