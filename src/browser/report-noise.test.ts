import { describe, expect, it } from "vitest";
import { classifyNoise } from "./report-noise.ts";

const ours = "https://site.example/_astro/checkout.abc123.js";

describe("error-report noise (spec 8)", () => {
  it.each([
    ["a cross-origin script error", { message: "Script error." }, "drop"],
    ["the same without its full stop", { message: "Script error" }, "drop"],
    [
      "the ResizeObserver loop notice",
      { message: "ResizeObserver loop completed with undelivered notifications." },
      "drop",
    ],
    ["the older ResizeObserver notice", { message: "ResizeObserver loop limit exceeded" }, "drop"],
    [
      "an error thrown by a Chrome extension",
      { message: "x", filename: "chrome-extension://abc/inject.js" },
      "warning",
    ],
    [
      "a Firefox extension at the top of the stack",
      { message: "x", stack: `f@moz-extension://0e1f/content.js:1:1\ng@${ours}:2:3` },
      "warning",
    ],
    [
      "a Safari extension",
      { message: "x", stack: "TypeError: x\n    at safari-extension://com.x/script.js:4:1" },
      "warning",
    ],
    [
      "an ad script",
      { message: "x", filename: "https://securepubads.g.doubleclick.net/tag/js/gpt.js" },
      "warning",
    ],
    [
      "our error with an extension lower in the stack",
      {
        message: "price is undefined",
        stack: `TypeError: price is undefined\n    at render (${ours}:10:5)\n    at chrome-extension://abc/hook.js:1:1`,
      },
      "keep",
    ],
    ["our own script", { message: "price is undefined", filename: ours }, "keep"],
    [
      "a host that only looks like an ad host",
      { message: "x", filename: "https://notdoubleclick.net/a.js" },
      "keep",
    ],
    ["an error with no source", { message: "Network failed" }, "keep"],
  ])("%s: %s", (_, report, verdict) => {
    expect(classifyNoise(report)).toBe(verdict);
  });
});
