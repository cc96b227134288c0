import { describe, expect, it } from "vitest";
import { makeCatalog } from "../testing/builders.ts";
import { EU_COUNTRIES, isEuCountry, taxAmount, taxName, taxRatePercent } from "./tax.ts";

const catalog = makeCatalog({
  taxRates: [
    { country: "US", state: null, ratePercent: 0, assumed: true },
    { country: "US", state: "CA", ratePercent: 7.25, assumed: true },
    { country: "US", state: "NY", ratePercent: 8.875, assumed: true },
    { country: "SE", state: null, ratePercent: 25, assumed: true },
  ],
});

describe("taxRatePercent", () => {
  it("takes the state's row first, then the country's, else 0", () => {
    expect(taxRatePercent(catalog, { country: "US", state: "CA" })).toBe(7.25);
    expect(taxRatePercent(catalog, { country: "us", state: "ny" })).toBe(8.875);
    expect(taxRatePercent(catalog, { country: "US", state: "OR" })).toBe(0);
    expect(taxRatePercent(catalog, { country: "SE" })).toBe(25);
    expect(taxRatePercent(catalog, { country: "SE", state: "CA" })).toBe(25);
    expect(taxRatePercent(catalog, { country: "FR" })).toBe(0);
  });
});

describe("taxAmount", () => {
  it("rounds to the cent, half up", () => {
    expect(taxAmount(5988, 25)).toBe(1497);
    expect(taxAmount(1000, 8.875)).toBe(89); // 88.75
    expect(taxAmount(200, 7.25)).toBe(15); // 14.5
    expect(taxAmount(199, 7.25)).toBe(14); // 14.4275
    expect(taxAmount(5988, 0)).toBe(0);
  });

  it("rejects a negative rate", () => {
    expect(() => taxAmount(100, -1)).toThrow(RangeError);
  });
});

describe("taxName (issue 33, item 6)", () => {
  it("calls the tax line as the buyer's country does", () => {
    expect(taxName("US")).toBe("Sales tax");
    expect(taxName("de")).toBe("VAT");
    expect(taxName("GB")).toBe("VAT");
    expect(taxName("AU")).toBe("GST");
    expect(taxName("NZ")).toBe("GST");
    expect(taxName("CA")).toBe("GST");
    expect(taxName("JP")).toBe("Consumption tax");
    expect(taxName("BR")).toBe("Tax");
  });
});

describe("EU membership", () => {
  it("knows the 27 member states, in any case and spacing", () => {
    expect(EU_COUNTRIES.size).toBe(27);
    expect(EU_COUNTRIES.has("GB")).toBe(false);
    expect(isEuCountry(" de ")).toBe(true);
    expect(isEuCountry("NO")).toBe(false);
  });
});
