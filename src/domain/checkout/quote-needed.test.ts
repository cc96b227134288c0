import { describe, expect, it } from "vitest";
import { seatsToQuote } from "./quote-needed.ts";

const above = { errorCode: "invalid_seats", fieldProblem: null, seats: 50001, minimum: 30 };

describe("seatsToQuote", () => {
  it("quotes seats the server refused above the minimum", () => {
    expect(seatsToQuote(above)).toBe(50001);
  });

  it("leaves every other refusal to its own message", () => {
    expect(seatsToQuote({ ...above, errorCode: "rate_limited" })).toBeNull();
    expect(seatsToQuote({ ...above, fieldProblem: "Enter a whole number" })).toBeNull();
    expect(seatsToQuote({ ...above, seats: 29 })).toBeNull();
    expect(seatsToQuote({ ...above, minimum: null })).toBeNull();
  });
});
