import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkResetForm, passwordValidations, resetLinkEmail, resetOutcome } from "./password.ts";

describe("reset form check (spec section 5)", () => {
  it("shows the page's messages", () => {
    expect(checkResetForm({ password: "", confirm: "" })).toMatchInlineSnapshot(`
      {
        "canSubmit": false,
        "confirm": "You can't leave this empty.",
        "match": null,
        "password": "You can't leave this empty.",
      }
    `);
    expect(checkResetForm({ password: "abc", confirm: "abd" })).toMatchInlineSnapshot(`
      {
        "canSubmit": false,
        "confirm": "Short passwords are easy to guess. Try one with at least 6 characters.",
        "match": "Passwords do not match",
        "password": "Short passwords are easy to guess. Try one with at least 6 characters.",
      }
    `);
    expect(checkResetForm({ password: "secret1", confirm: "secret1" })).toEqual({
      password: null,
      confirm: null,
      match: "OK",
      canSubmit: true,
    });
  });

  it("enables submit exactly for equal passwords of 6 to 50 characters", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), (a, b) => {
        const ok = a === b && a.length >= 6 && a.length <= 50;
        expect(checkResetForm({ password: a, confirm: b }).canSubmit).toBe(ok);
        expect(passwordValidations(a, b).length === 0).toBe(ok);
      }),
    );
  });
});

describe("server validations", () => {
  it("reports the codes the page handles", () => {
    expect(passwordValidations("", "x")).toEqual(["emptyPasswords"]);
    expect(passwordValidations("abc", "abc")).toEqual(["PasswordTooShort"]);
    expect(passwordValidations("abcdefg", "abcdefh")).toEqual(["PasswordsNotMatch"]);
    expect(passwordValidations("a".repeat(51), "a".repeat(51))).toEqual(["PasswordTooLong"]);
  });
});

describe("reset outcome (spec section 8)", () => {
  it("maps each answer to the page message", () => {
    expect(resetOutcome({ success: true }, false)).toEqual({
      kind: "success",
      message: "Success! You will be redirected to login page in 5 seconds",
      redirectSeconds: 5,
    });
    expect(resetOutcome({ success: true }, true).message).toBe(
      "Success! Your password has been changed",
    );
    expect(resetOutcome({ success: false }, false).message).toBe("This link has expired.");
    expect(
      resetOutcome({ success: false, failedValidations: ["PasswordsNotMatch"] }, false).message,
    ).toBe("Passwords do not match");
    const problem =
      "There was a problem sending your new password. Please try again. If the problem persists, please contact the provider's support.";
    expect(resetOutcome({ success: false, failedValidations: ["Other"] }, false).message).toBe(
      problem,
    );
    expect(resetOutcome("network-failure", false).message).toBe(problem);
  });
});

describe("campaign user (spec 2.7)", () => {
  it("is marked by the campaign hash after the e-mail, in the fragment or encoded", () => {
    expect(resetLinkEmail("pat@example.com", "#campaign")).toEqual({
      email: "pat@example.com",
      campaignUser: true,
    });
    expect(resetLinkEmail("pat@example.com#campaign", "")).toEqual({
      email: "pat@example.com",
      campaignUser: true,
    });
    expect(resetLinkEmail("pat@example.com", "")).toEqual({
      email: "pat@example.com",
      campaignUser: false,
    });
    expect(resetLinkEmail("pat@example.com", "#other").campaignUser).toBe(false);
  });
});
