import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../contract/index.ts";
import { errorMessage, failureMessage, unreachable } from "./error-messages.ts";

describe("errorMessage", () => {
  it("gives the spec's card messages, verbatim", () => {
    expect(
      Object.fromEntries(
        [
          "expired_card",
          "incorrect_cvc",
          "card_declined",
          "processing_error",
          "incorrect_zip",
          "insufficient_funds",
          "card_error",
          "invalid_card",
        ].map((code) => [code, errorMessage(code as "card_error", "provider text")]),
      ),
    ).toMatchInlineSnapshot(`
      {
        "card_declined": "Your card was declined. Please reach out to your card provider for more information.",
        "card_error": "Card declined. Please update card and try again.",
        "expired_card": "The card you provided is expired. Please try again with a valid card.",
        "incorrect_cvc": "You did not enter the correct CVC code for your card. The CVC code is the three or four digit number on the back of the card.",
        "incorrect_zip": "The ZIP (US) or postal (elsewhere) code provided failed validation",
        "insufficient_funds": "Card declined. Please update card and try again.",
        "invalid_card": "Card declined. Please update card and try again.",
        "processing_error": "Oops, something went wrong. Please try again",
      }
    `);
  });

  it("gives the spec's other fixed strings and the catalogue's messages", () => {
    expect(errorMessage("upgrade_without_product", "x")).toBe("Upgrade call without any product");
    expect(errorMessage("not_found", "x")).toBe("NOT FOUND");
    expect(errorMessage("price_changed", "x")).toMatchInlineSnapshot(
      `"The price changed since the summary was shown. Review the new total and confirm again."`,
    );
    expect(errorMessage("body_too_large", "x")).toMatchInlineSnapshot(
      `"The request body is larger than 64 KB. Send a smaller body."`,
    );
  });

  it("never shows a schema's own wording for a refused request", () => {
    expect(
      errorMessage("invalid_request", "The request is not valid: email Invalid email address."),
    ).toMatchInlineSnapshot(
      `"The request is not valid: some fields are missing or have the wrong form. Correct it and try again."`,
    );
  });

  it("uses the server's catalogue message where it names specifics", () => {
    const seats = "Schools needs at least 30 seats; you asked for 10.";
    expect(errorMessage("invalid_seats", seats)).toBe(seats);
    expect(errorMessage("rate_limited", "Wait 3 seconds")).toBe("Wait 3 seconds");
  });

  it("has a non-empty message for every code of the contract", () => {
    for (const code of ERROR_CODES) {
      const message = errorMessage(code, "from the server");
      expect(message.length, code).toBeGreaterThan(3);
      expect(message, code).not.toMatch(/^Error:|Invalid input|Expected/);
    }
  });

  it("fails loudly if a value escapes its type", () => {
    expect(() => unreachable("nope" as never)).toThrow('Unhandled case: "nope"');
  });
});

describe("failureMessage", () => {
  it("maps a contract code, even one the endpoint does not list", () => {
    expect(failureMessage({ kind: "http", message: "x", status: 402, code: "expired_card" })).toBe(
      "The card you provided is expired. Please try again with a valid card.",
    );
    expect(
      failureMessage({ kind: "http", message: "x", status: 409, errorCode: "account_busy" }),
    ).toMatch(/^Another change to this account is in progress/);
  });

  it("keeps spec section 8's normalised message otherwise", () => {
    expect(
      failureMessage({ kind: "timeout", message: "Api timeout response.", status: "ECONNABORTED" }),
    ).toBe("Api timeout response.");
    expect(failureMessage({ kind: "network", message: "NOT FOUND", status: 404 })).toBe(
      "NOT FOUND",
    );
    expect(failureMessage({ kind: "http", message: "Bad Gateway", status: 502 })).toBe(
      "Bad Gateway",
    );
    expect(
      failureMessage({ kind: "http", message: "Other backend", status: 409, errorCode: "new_one" }),
    ).toBe("Other backend");
  });
});
