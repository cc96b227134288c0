import { describe, expect, it } from "vitest";
import { footerModel, headerModel } from "./site.ts";

describe("headerModel", () => {
  it("is the logged-out header: Pricing, sign-up per tier, login", () => {
    const header = headerModel();
    expect(header.home.href).toBe("/");
    expect(header.nav.map((link) => link.label)).toContain("Pricing");
    expect(header.signUp.map((link) => link.href)).toEqual([
      "/cart?tier=personal#signup",
      "/cart?tier=business#signup",
      "/cart?tier=education#signup",
    ]);
    expect(header.login.href).toBe("/sign-in");
  });
});

describe("footerModel", () => {
  it("has the build year and the terms-of-use and privacy links", () => {
    const footer = footerModel(Date.UTC(2027, 0, 1, 0, 0, 1));
    expect(footer.year).toBe(2027);
    expect(footer.legal.map((link) => link.href)).toEqual(["/terms-of-use", "/privacy"]);
  });
});
