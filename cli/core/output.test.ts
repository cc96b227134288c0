import { describe, expect, it } from "vitest";
import { ExitError } from "./exit-error.ts";
import { colour, plain, wantsColour } from "./output.ts";
import { BUG_EXIT_CODE, reportError } from "./report-error.ts";

describe("wantsColour", () => {
  it("colours only a terminal, and never with NO_COLOR set", () => {
    expect(wantsColour({ write: () => true, isTTY: true }, {})).toBe(true);
    expect(wantsColour({ write: () => true, isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(wantsColour({ write: () => true, isTTY: true }, { NO_COLOR: "" })).toBe(true);
    expect(wantsColour({ write: () => true }, {})).toBe(false);
  });

  it("styles with ANSI codes, or not at all", () => {
    expect(colour.red("x")).toBe("\u001b[31mx\u001b[39m");
    expect(plain.red("x")).toBe("x");
  });
});

describe("reportError", () => {
  it("prints an ExitError's message alone, with its exit code", () => {
    expect(reportError(new ExitError("no catalogue folder at x", 3), plain)).toEqual({
      text: "no catalogue folder at x",
      exitCode: 3,
    });
  });

  it("reports anything else as a bug, with the stack", () => {
    const { text, exitCode } = reportError(new TypeError("x is undefined"), plain);
    expect(exitCode).toBe(BUG_EXIT_CODE);
    expect(text.split("\n").slice(0, 2)).toEqual([
      "this is a bug; please report it",
      "TypeError: x is undefined",
    ]);
    expect(text).toContain("output.test.ts");
  });
});
