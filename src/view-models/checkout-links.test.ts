import { describe, expect, it } from "vitest";
import { checkoutHref, quoteHref } from "./checkout-links.ts";

describe("checkoutHref", () => {
  it("carries p, product and tier into the checkout screen", () => {
    expect(checkoutHref({ p: "buy", product: "wv_single_12m", tier: "personal" })).toBe(
      "/cart?p=buy&product=wv_single_12m&tier=personal#checkout",
    );
  });

  it("opens the trial, single-export and sign-up screens", () => {
    expect(checkoutHref({ p: "trial", product: "wv_bizoct17_12m", tier: "business" })).toBe(
      "/cart?p=trial&product=wv_bizoct17_12m&tier=business#checkout",
    );
    expect(
      checkoutHref({
        p: "buy",
        product: "single_export_4k",
        tier: "personal",
        route: "checkout_single_export",
      }),
    ).toBe("/cart?p=buy&product=single_export_4k&tier=personal#checkout_single_export");
    expect(checkoutHref({ tier: "education", route: "signup" })).toBe(
      "/cart?tier=education#signup",
    );
  });
});

describe("quoteHref", () => {
  it("is the quote page with the seat count", () => {
    expect(quoteHref(50001)).toBe("/orders?seats=50001");
  });
});
