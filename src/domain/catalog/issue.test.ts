import { describe, expect, it } from "vitest";
import { formatPath, sortIssues } from "./issue.ts";

describe("formatPath", () => {
  it("writes keys dotted and indexes in brackets", () => {
    expect(formatPath(["variants", 1, "price"])).toBe("variants[1].price");
    expect(formatPath([0, "code"])).toBe("[0].code");
    expect(formatPath([])).toBe("");
  });
});

describe("sortIssues", () => {
  it("orders by file, then line, keeping discovery order otherwise", () => {
    const issue = (file: string, line?: number, code = "x") => ({
      code,
      file,
      path: "",
      message: "",
      ...(line ? { line } : {}),
    });
    expect(
      sortIssues([
        issue("b", 1),
        issue("a", 9),
        issue("a", 2, "first"),
        issue("a", 2, "second"),
      ]).map((i) => [i.file, i.line, i.code]),
    ).toEqual([
      ["a", 2, "first"],
      ["a", 2, "second"],
      ["a", 9, "x"],
      ["b", 1, "x"],
    ]);
  });
});
