import { describe, expect, it } from "vitest";
import { templateTarget } from "./template-redirect.ts";

describe("template redirect target", () => {
  it("opens a template id in the editor", () => {
    expect(templateTarget("tpl_123-abc")).toBe("/app?templateId=tpl_123-abc");
  });

  it("refuses anything that is not an opaque id, so nothing leaves the site", () => {
    const hostile = [
      null,
      "",
      "//evil.example",
      "https://evil.example/x",
      "javascript:alert(1)",
      "../client/4/instance/disband",
      "%2F%2Fevil.example",
      "a&redirect=//evil.example",
      "x#//evil.example",
      "id with space",
      "é",
      "a".repeat(129),
    ];
    for (const id of hostile) expect(templateTarget(id), String(id)).toBeNull();
  });
});
