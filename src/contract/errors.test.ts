import { describe, expect, it } from "vitest";
import { API_ERRORS } from "../domain/errors/api-errors.ts";
import { CARD_ERROR_CODES } from "../domain/errors/card-errors.ts";
import { PRICING_ERROR_CODES } from "../domain/errors/pricing-codes.ts";
import { api, BODY_ERRORS, ERROR_CODES, isErrorCode } from "./index.ts";

describe("the closed set of error codes", () => {
  it("is the server's catalogue plus the card codes, each once", () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect([...ERROR_CODES].sort()).toEqual(
      [...Object.keys(API_ERRORS), ...CARD_ERROR_CODES].sort(),
    );
    expect(isErrorCode("price_changed")).toBe(true);
    expect(isErrorCode("SEATS_ABOVE_MAXIMUM")).toBe(false);
    expect(isErrorCode("toString")).toBe(false);
  });

  it("spells every pricing refusal as one of its codes", () => {
    for (const code of Object.values(PRICING_ERROR_CODES)) expect(ERROR_CODES).toContain(code);
  });

  it("lists, for every endpoint, codes of the set and the generic ones its shape implies", () => {
    for (const [name, entry] of Object.entries(api)) {
      for (const code of entry.errors) expect(ERROR_CODES, name).toContain(code);
      expect(entry.errors, name).toContain("internal_error");
      if (entry.method !== "GET") expect(entry.errors, name).toContain("cross_site");
      if ("body" in entry)
        expect(entry.errors, name).toEqual(expect.arrayContaining([...BODY_ERRORS]));
      if ("idempotent" in entry) expect(entry.errors, name).toContain("idempotency_key_required");
    }
  });
});
