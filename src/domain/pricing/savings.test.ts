import { describe, expect, it } from "vitest";
import { savingsPercent } from "./savings.ts";

const monthly = (price: number) => ({ price, termDuration: 1 as const });
const annual = (price: number) => ({ price, termDuration: 12 as const });

describe("savingsPercent", () => {
  it.each([
    ["Power", 999, 5988],
    ["Power + essentials", 2998, 17976],
    ["Unlimited", 1599, 9588],
    ["Unlimited + essentials", 3598, 21576],
    ["Professional", 3999, 23988],
    ["Professional (sample)", 3599, 21588],
    ["Business", 7399, 44388],
    ["Business (sample)", 5999, 35988],
  ])("%s saves 50%% yearly", (_name, perMonth, perYear) => {
    expect(savingsPercent(monthly(perMonth), annual(perYear))).toBe(50);
  });

  it("rounds down, so the saving shown is never more than the real one", () => {
    expect(savingsPercent(monthly(1000), annual(10680))).toBe(11); // exactly 11%
    expect(savingsPercent(monthly(1000), annual(10690))).toBe(10); // 10.92%
  });

  it("is null when the annual version saves nothing or less than 1%", () => {
    expect(savingsPercent(monthly(1000), annual(12000))).toBeNull();
    expect(savingsPercent(monthly(1000), annual(12100))).toBeNull();
    expect(savingsPercent(monthly(1000), annual(11990))).toBeNull();
    expect(savingsPercent(monthly(0), annual(0))).toBeNull();
  });

  it("compares any two terms by their monthly equivalents", () => {
    expect(savingsPercent(monthly(1000), { price: 5400, termDuration: 6 })).toBe(10);
  });
});
