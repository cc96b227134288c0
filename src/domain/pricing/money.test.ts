import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  divRoundHalfUp,
  formatCount,
  formatPrice,
  formatUsd,
  mulDivRoundHalfUp,
  toCents,
} from "./money.ts";

describe("toCents", () => {
  it("is exact for amounts with two decimals", () => {
    expect(toCents(9.99)).toBe(999);
    expect(toCents(59.88)).toBe(5988);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(-1.5)).toBe(-150);
    expect(toCents(-0)).toBe(0);
  });

  it("round-trips every cent amount up to 10 million dollars", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
        (cents) => toCents(cents / 100) === cents,
      ),
      { numRuns: 10_000 },
    );
  });

  it("rejects amounts that are not finite", () => {
    expect(() => toCents(Number.NaN)).toThrow(RangeError);
  });
});

describe("formatPrice and formatUsd", () => {
  it("shows two decimals with thousands separators", () => {
    expect(formatPrice(123456)).toBe("1,234.56");
    expect(formatPrice(0)).toBe("0.00");
    expect(formatPrice(5)).toBe("0.05");
    expect(formatPrice(999)).toBe("9.99");
    expect(formatPrice(100_000_000)).toBe("1,000,000.00");
    expect(formatPrice(-123456)).toBe("-1,234.56");
  });

  it("prefixes the dollar sign after any minus", () => {
    expect(formatUsd(123456)).toBe("$1,234.56");
    expect(formatUsd(-299)).toBe("-$2.99");
  });

  it("refuses amounts that are not integer cents", () => {
    expect(() => formatPrice(9.99)).toThrow("Amounts are integer cents; got 9.99.");
  });

  it("formats counts with separators", () => {
    expect(formatCount(50000)).toBe("50,000");
    expect(formatCount(999)).toBe("999");
  });
});

describe("rounding", () => {
  it("rounds half up", () => {
    expect(divRoundHalfUp(5, 2)).toBe(3);
    expect(divRoundHalfUp(1, 2)).toBe(1);
    expect(divRoundHalfUp(37400, 12)).toBe(3117);
    expect(divRoundHalfUp(37394, 12)).toBe(3116);
    expect(divRoundHalfUp(-5, 2)).toBe(-2);
  });

  it("multiplies before dividing without losing precision beyond 2^53", () => {
    // 999,999.99 paid, 364 of 365 days left: the product is past 2^53.
    const day = 86_400_000;
    expect(mulDivRoundHalfUp(99_999_999, 364 * day, 365 * day)).toBe(99_726_026);
  });

  it("rejects a zero divisor", () => {
    expect(() => divRoundHalfUp(1, 0)).toThrow(RangeError);
  });
});
