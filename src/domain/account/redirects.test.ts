import { describe, expect, it } from "vitest";
import { parseFeatures, prefersHtmlEditor, requiresEmailVerification } from "./features.ts";
import { decideRedirect, type RedirectInput, type RedirectUser } from "./redirects.ts";

const user: RedirectUser = {
  email: "someone@example.com",
  domainStatus: null,
  productIsFree: true,
  disableAccountUpgrades: false,
  mobileOrWalletBlocked: false,
  mustValidateEducationEmail: false,
  educationEmailValid: null,
  allowedThrough: false,
};

function input(overrides: Partial<RedirectInput>): RedirectInput {
  return {
    page: "checkout",
    isAuth: true,
    currentUrl: "/cart#checkout",
    query: {},
    user,
    districts: [],
    ...overrides,
  };
}

describe("redirect rules (spec 2.5)", () => {
  it("never redirects invitation pages", () => {
    expect(decideRedirect(input({ page: "invite", isAuth: false, user: null }))).toEqual({
      kind: "stay",
    });
  });

  it("sends anonymous visitors of the extension landing to sign-in", () => {
    expect(
      decideRedirect(input({ page: "rce", isAuth: false, user: null, currentUrl: "/cart/rce" })),
    ).toEqual({
      kind: "redirect",
      to: "/sign-in?redirect=%2Fcart%2Frce",
    });
  });

  it("lets anonymous visitors see public pages and sends them away from the rest", () => {
    expect(decideRedirect(input({ page: "plans", isAuth: false, user: null }))).toEqual({
      kind: "stay",
    });
    expect(decideRedirect(input({ isAuth: false, user: null }))).toEqual({
      kind: "redirect",
      to: "/sign-in?redirect=%2Fcart%23checkout",
    });
    expect(
      decideRedirect(
        input({ isAuth: false, user: null, query: { p: "buy", product: "wv_single_12m" } }),
      ),
    ).toEqual({ kind: "redirect", to: "/cart/plans?tab=signup&p=buy&product=wv_single_12m" });
  });

  it("stops blocked domains and applies account rules", () => {
    expect(decideRedirect(input({ user: { ...user, domainStatus: "blocked" } }))).toEqual({
      kind: "stop",
      reason: "blocked_domain",
    });
    expect(decideRedirect(input({ user: { ...user, disableAccountUpgrades: true } }))).toEqual({
      kind: "redirect",
      to: "/cart#upgrades-disabled",
    });
    expect(decideRedirect(input({ user: { ...user, mobileOrWalletBlocked: true } }))).toEqual({
      kind: "redirect",
      to: "/cart#upgrades-disabled",
    });
  });

  it("sends an invalid education e-mail to the invalid-email page", () => {
    const edu = { ...user, mustValidateEducationEmail: true, educationEmailValid: false };
    expect(
      decideRedirect(
        input({
          user: edu,
          query: { p: "trial", product: "wv_edu_trial", validateEduEmail: "true" },
        }),
      ),
    ).toEqual({
      kind: "redirect",
      to: "/cart/invalid-email?p=trial&tier=education&product=wv_edu_trial&validateEduEmail=true",
    });
    expect(decideRedirect(input({ user: { ...edu, allowedThrough: true } }))).toEqual({
      kind: "stay",
    });
    expect(decideRedirect(input({ page: "invalid-email", user: edu }))).toEqual({ kind: "stay" });
  });
});

describe("features", () => {
  it("parses the space-separated list", () => {
    expect(parseFeatures(" a  TrialEmailVerification b ")).toEqual([
      "a",
      "TrialEmailVerification",
      "b",
    ]);
    expect(requiresEmailVerification(["TrialEmailVerification"], false)).toBe(true);
    expect(requiresEmailVerification(["TrialEmailVerification"], true)).toBe(false);
  });

  it("honours an explicit editor choice, else defaults by age of the account", () => {
    expect(prefersHtmlEditor("false", 10_000, 100)).toBe(false);
    expect(prefersHtmlEditor(true, 1, 100)).toBe(true);
    expect(prefersHtmlEditor(undefined, 50, 100)).toBe(false);
    expect(prefersHtmlEditor(undefined, 500, 100)).toBe(true);
  });
});
