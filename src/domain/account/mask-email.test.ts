import { describe, expect, it } from "vitest";
import { maskEmail } from "./mask-email.ts";

describe("maskEmail", () => {
  it.each([
    ["jane.doe@example.com", "j***@example.com"],
    ["j@example.com", "j***@example.com"],
    ["ängel@example.com", "ä***@example.com"],
    ["a@b@example.com", "a***@example.com"],
    ["no-at-sign", "***"],
    ["@example.com", "***"],
    ["someone@", "***"],
  ])("%s → %s", (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });
});
