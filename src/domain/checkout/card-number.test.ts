import { describe, expect, it } from "vitest";
import {
  brandOf,
  cardProblems,
  formatCardNumber,
  formatExpiry,
  luhnValid,
  parseExpiry,
} from "./card-number.ts";

describe("card number as typed", () => {
  it("is spaced in the card's groups", () => {
    expect(formatCardNumber("4242424242424242")).toBe("4242 4242 4242 4242");
    expect(formatCardNumber("4242-4242 42")).toBe("4242 4242 42");
    expect(formatCardNumber("378282246310005")).toBe("3782 822463 10005");
    expect(formatCardNumber("42424242424242424242")).toBe("4242 4242 4242 4242 424");
  });
  it("names the brand from the first digits", () => {
    expect(brandOf("4")).toBe("visa");
    expect(brandOf("5555")).toBe("mastercard");
    expect(brandOf("2221")).toBe("mastercard");
    expect(brandOf("37")).toBe("amex");
    expect(brandOf("6011")).toBe("discover");
    expect(brandOf("9")).toBe("unknown");
  });
  it("checks the Luhn digit", () => {
    expect(luhnValid("4242424242424242")).toBe(true);
    expect(luhnValid("4242424242424241")).toBe(false);
    expect(luhnValid("")).toBe(false);
  });
});

describe("expiry as typed", () => {
  it("becomes MM / YY", () => {
    expect(formatExpiry("1")).toBe("1");
    expect(formatExpiry("12")).toBe("12 / ");
    expect(formatExpiry("12", true)).toBe("12");
    expect(formatExpiry("1228")).toBe("12 / 28");
    expect(formatExpiry("12/28")).toBe("12 / 28");
    expect(formatExpiry("4")).toBe("04 / ");
    expect(formatExpiry("12 / 2899")).toBe("12 / 28");
  });
  it("parses to a month and a four-digit year", () => {
    expect(parseExpiry("12 / 28")).toEqual({ month: 12, year: 2028 });
    expect(parseExpiry("1/30")).toEqual({ month: 1, year: 2030 });
    expect(parseExpiry("13 / 30")).toBeNull();
    expect(parseExpiry("12 / ")).toBeNull();
  });
});

describe("what is wrong with a card before it is sent", () => {
  const now = new Date(2026, 10, 27);
  it("nothing, for a good card", () => {
    expect(
      cardProblems({ number: "4242 4242 4242 4242", expiry: "11 / 26", cvc: "123" }, now),
    ).toEqual({});
  });
  it("each field by name", () => {
    expect(
      cardProblems({ number: "4242 4242 4242 4241", expiry: "10 / 26", cvc: "1" }, now),
    ).toEqual({
      cardNumber: "This card number is not valid: check the digits.",
      expiry: "This card has expired: check the date, or use another card.",
      cvc: "Enter the 3 or 4 digit security code (on the back; on the front for American Express).",
    });
    expect(cardProblems({ number: "", expiry: "", cvc: "" }, now)).toMatchObject({
      cardNumber: "Enter the card number.",
      expiry: "Enter the expiry date, as on the card (MM / YY).",
    });
  });
});
