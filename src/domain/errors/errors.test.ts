import { describe, expect, it } from "vitest";
import {
  API_ERRORS,
  apiError,
  CARD_ERROR_CODES,
  cardError,
  cardErrorMessage,
  GENERIC_CARD_ERROR_MESSAGE,
  MESSAGES,
  normaliseCallError,
  RESET_PASSWORD_MESSAGES,
} from "./index.ts";

describe("card errors (spec section 8)", () => {
  it("maps every listed code to its message, verbatim", () => {
    expect({
      expired_card: cardErrorMessage("expired_card"),
      incorrect_cvc: cardErrorMessage("incorrect_cvc"),
      card_declined: cardErrorMessage("card_declined"),
      processing_error: cardErrorMessage("processing_error"),
      incorrect_zip: cardErrorMessage("incorrect_zip"),
    }).toMatchInlineSnapshot(`
      {
        "card_declined": "Your card was declined. Please reach out to your card provider for more information.",
        "expired_card": "The card you provided is expired. Please try again with a valid card.",
        "incorrect_cvc": "You did not enter the correct CVC code for your card. The CVC code is the three or four digit number on the back of the card.",
        "incorrect_zip": "The ZIP (US) or postal (elsewhere) code provided failed validation",
        "processing_error": "Oops, something went wrong. Please try again",
      }
    `);
  });

  it("gives any other code, and no code, the generic message", () => {
    for (const code of ["insufficient_funds", "toString", "", null, undefined]) {
      expect(cardErrorMessage(code)).toBe("Card declined. Please update card and try again.");
    }
  });

  it("keeps the provider's code as error_code in the API answer", () => {
    expect(cardError("insufficient_funds")).toEqual({
      status: 402,
      body: {
        message: "Card declined. Please update card and try again.",
        error_code: "insufficient_funds",
      },
    });
    expect(cardError("expired_card").body.message).toBe(cardErrorMessage("expired_card"));
  });

  it("answers card_error for any provider code outside the closed set, or none", () => {
    for (const code of ["lost_card", "toString", "", null]) {
      expect(cardError(code)).toEqual({
        status: 402,
        body: { message: GENERIC_CARD_ERROR_MESSAGE, error_code: "card_error" },
      });
    }
    for (const code of CARD_ERROR_CODES) expect(cardError(code).body.error_code).toBe(code);
  });
});

describe("other messages", () => {
  it("pins the fixed strings", () => {
    expect(MESSAGES).toMatchInlineSnapshot(`
      {
        "failToGetDeleteMembers": "Fail to get Delete Members!",
        "failToGetProducts": "Fail to get Products",
        "failedToGetProducts": "Failed to get Products",
        "invoiceNotGenerated": "INVOICE WAS NOT GENERATED",
        "paypalInvoiceNotGenerated": "PAYPAL INVOICE WAS NOT GENERATED",
        "upgradeWithoutProduct": "Upgrade call without any product",
      }
    `);
    expect(RESET_PASSWORD_MESSAGES.successRedirect(5)).toBe(
      "Success! You will be redirected to login page in 5 seconds",
    );
    expect(RESET_PASSWORD_MESSAGES.linkExpired).toBe("This link has expired.");
  });
});

describe("normaliseCallError", () => {
  it("follows each branch of spec section 8", () => {
    expect(normaliseCallError({ kind: "timeout" })).toEqual({
      message: "Api timeout response.",
      status: "ECONNABORTED",
    });
    expect(normaliseCallError({ kind: "no-response" })).toEqual({
      message: "NOT FOUND",
      status: 404,
    });
    expect(
      normaliseCallError({
        kind: "response",
        status: 409,
        statusText: "Conflict",
        body: { message: "Taken", error_code: "email_taken" },
      }),
    ).toEqual({ message: "Taken", status: 409, code: "email_taken" });
    expect(
      normaliseCallError({ kind: "response", status: 502, statusText: "Bad Gateway", body: "" }),
    ).toEqual({ message: "Bad Gateway", status: 502 });
  });
});

describe("API error catalogue", () => {
  it("gives every code a 4xx or 5xx status and a non-empty message", () => {
    for (const code of Object.keys(API_ERRORS) as (keyof typeof API_ERRORS)[]) {
      const entry = API_ERRORS[code];
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      const message =
        typeof entry.message === "function"
          ? (entry.message as (...a: unknown[]) => string)("x")
          : entry.message;
      expect(message).not.toMatch(/^Error:/);
      expect(message.length).toBeGreaterThan(3);
    }
  });

  it("builds dynamic messages", () => {
    expect(apiError("rate_limited", 1).body.message).toMatchInlineSnapshot(
      `"Too many attempts in a short time. Wait 1 second and try again."`,
    );
    expect(apiError("unknown_product", "wv_nope")).toMatchInlineSnapshot(`
      {
        "body": {
          "error_code": "unknown_product",
          "message": "There is no product with the code "wv_nope". Choose a product from the plans page.",
        },
        "status": 404,
      }
    `);
    expect(apiError("upgrade_without_product").body.message).toBe(
      "Upgrade call without any product",
    );
  });
});
