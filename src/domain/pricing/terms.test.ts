import { describe, expect, it } from "vitest";
import {
  extraSeatMonthlyPrice,
  modeForTerm,
  monthlyPrice,
  termAdverb,
  termForMode,
  termLabel,
  termMonthsFromCode,
} from "./terms.ts";

describe("termMonthsFromCode", () => {
  it.each([
    ["wv_k12_6m", 6],
    ["wv_single_1m", 1],
    ["wv_single_plus_1m", 1],
    ["wv_single_12m", 12],
    ["wv_flex2", 12],
    ["wv_free", 12],
  ] as const)("%s → %i months", (code, months) => {
    expect(termMonthsFromCode(code)).toBe(months);
  });
});

describe("labels", () => {
  it("names terms and their adverbs", () => {
    expect([1, 6, 12].map((m) => termLabel(m as 1 | 6 | 12))).toEqual([
      "month",
      "6 months",
      "year",
    ]);
    expect([1, 6, 12].map((m) => termAdverb(m as 1 | 6 | 12))).toEqual([
      "monthly",
      "semi-annually",
      "annually",
    ]);
    expect(modeForTerm(6)).toBe("semi-annual");
    expect(termForMode("monthly")).toBe(1);
    expect(termForMode("annual")).toBe(12);
  });
});

describe("monthlyPrice", () => {
  it.each([
    ["Power", 5988, 499],
    ["Power + essentials", 17976, 1498],
    ["Unlimited", 9588, 799],
    ["Unlimited + essentials", 21576, 1798],
    ["Professional", 23988, 1999],
    ["Professional (sample)", 21588, 1799],
    ["Business", 44388, 3699],
    ["Business (sample)", 35988, 2999],
  ])("%s yearly %i → %i per month", (_name, yearly, monthly) => {
    expect(monthlyPrice(yearly, 12)).toBe(monthly);
  });

  it("leaves a monthly price as it is", () => {
    expect(monthlyPrice(999, 1)).toBe(999);
  });

  it("rounds half a cent up", () => {
    expect(monthlyPrice(6, 12)).toBe(1);
    expect(monthlyPrice(5, 12)).toBe(0);
    expect(monthlyPrice(37400, 12)).toBe(3117);
    expect(monthlyPrice(3, 6)).toBe(1);
  });

  it("rejects a negative or fractional price", () => {
    expect(() => monthlyPrice(-1, 12)).toThrow(
      "A price must be integer cents of at least 0; got -1.",
    );
    expect(() => monthlyPrice(9.99, 1)).toThrow(RangeError);
  });
});

describe("extraSeatMonthlyPrice", () => {
  it("divides the seat price by the term", () => {
    expect(extraSeatMonthlyPrice(23988, 12)).toBe(1999);
    expect(extraSeatMonthlyPrice(3999, 1)).toBe(3999);
  });

  it("refuses the -1 'no seats' marker", () => {
    expect(() => extraSeatMonthlyPrice(-1, 12)).toThrow(
      "A seat price must be integer cents of at least 0; got -1.",
    );
  });
});
