import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseFeatures, prefersHtmlEditor, requiresEmailVerification } from "./features.ts";
import {
  decideRedirect,
  type RedirectInput,
  type RedirectUser,
  safeRedirectPath,
} from "./redirects.ts";

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
    ).toEqual({
      kind: "redirect",
      to: "/cart/plans?tab=signup&p=buy&product=wv_single_12m&redirect=%2Fcart%23checkout",
    });
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

  it("sends a trial that must verify its e-mail to the activation step, and lets it be there", () => {
    const unverified = { ...user, mustVerifyEmail: true };
    // With the interrupted page to come back to (issue 22).
    expect(decideRedirect(input({ user: unverified }))).toEqual({
      kind: "redirect",
      to: "/cart?redirect=%2Fcart%23checkout#email-activation",
    });
    for (const page of ["email-activation", "cancel-trial", "biztrial-account-completed", "home"]) {
      expect(decideRedirect(input({ user: unverified, page })), page).toEqual({ kind: "stay" });
    }
    // Spec 2.5's education rule goes first: an unverified school address sees invalid-email.
    const edu = { ...unverified, mustValidateEducationEmail: true, educationEmailValid: false };
    expect(decideRedirect(input({ user: edu }))).toMatchObject({
      kind: "redirect",
      to: expect.stringMatching(/^\/cart\/invalid-email\?/),
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
    // The invalid-email page sends an unverified address to be verified: never back again.
    expect(decideRedirect(input({ page: "email-activation", user: edu }))).toEqual({
      kind: "stay",
    });
  });
});

describe("redirect rules (spec 2.5): the cases above do not cover", () => {
  const districts = [
    {
      emailDomains: ["district.example"],
      studentUrl: "https://www.district.example/students",
      staffUrl: "https://www.district.example/staff",
      studentPattern: "^[^@]+@students\\.district\\.example$",
    },
  ];

  it.each<[string, Partial<RedirectInput>, ReturnType<typeof decideRedirect>]>([
    ["the extension landing, signed in", { page: "rce" }, { kind: "stay" }],
    [
      "the extension landing, a visitor who came to buy",
      { page: "rce", isAuth: false, user: null, currentUrl: "/cart/rce", query: { p: "buy" } },
      { kind: "redirect", to: "/sign-in?redirect=%2Fcart%2Frce" },
    ],
    [
      "an invitation, blocked domain",
      { page: "invite", user: { ...user, domainStatus: "blocked" } },
      { kind: "stay" },
    ],
    [
      "the expired-account page, upgrades disabled",
      { page: "expired-account", user: { ...user, disableAccountUpgrades: true } },
      { kind: "stay" },
    ],
    [
      "a district student on a free product",
      { page: "plans", districts, user: { ...user, email: "kid@students.district.example" } },
      { kind: "redirect", to: "https://www.district.example/students" },
    ],
    [
      "district staff on a free product",
      { page: "plans", districts, user: { ...user, email: "head@district.example" } },
      { kind: "redirect", to: "https://www.district.example/staff" },
    ],
    [
      "district staff on a paid product",
      {
        page: "plans",
        districts,
        user: { ...user, email: "head@district.example", productIsFree: false },
      },
      { kind: "stay" },
    ],
  ])("%s", (_, overrides, expected) => {
    expect(decideRedirect(input(overrides))).toEqual(expected);
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

describe("redirect targets from outside (safeRedirectPath)", () => {
  const SITE = "http://localhost:4321";

  it.each([
    ["/\t/evil.example"],
    ["/\\evil.example"],
    ["\\\\evil.example"],
    ["/\\/evil.example"],
    [`${SITE}//evil.example`],
    [`${SITE}/\\evil.example`],
    ["//evil.example"],
    ["///evil.example"],
    ["https:evil.example"],
    ["https:/evil.example"],
    ["https://evil.example/cart"],
    ["http://localhost:4321.evil.example/cart"],
    [`http://user:pass@localhost:4321/cart`],
    ["/%2F%2Fevil.example"],
    ["/%2f%2fevil.example"],
    ["/%5Cevil.example"],
    ["/%252F%252Fevil.example"],
    ["/cart/..//evil.example"],
    ["/cart\n"],
    ["/cart\r\nSet-Cookie: sid=stolen"],
    ["/cart%0D%0ASet-Cookie:%20sid=stolen"],
    ["/cart\u0000"],
    ["/cart%00"],
    ["/cart\u0085"],
    ["/cart\u007f"],
    ["/cart\u00a0"],
    ["/cart\u2028"],
    ["/cart\u3000"],
    ["/cart#\u202e"],
    ["/cart#%E2%80%AE"],
    [" /cart"],
    ["javascript:alert(1)"],
    ["JavaScript:alert(1)//"],
    ["data:text/html,hi"],
    ["cart"],
    [""],
    ["/api/3/payment/upgrade"],
    ["/login?action=logout"],
    ["/dev/paypal/approve"],
    [`/cart?${"x".repeat(2000)}`],
  ])("refuses %j", (target) => {
    expect(safeRedirectPath(target, SITE)).toBeNull();
  });

  it.each([
    ["/cart#paypalCompleted", "/cart#paypalCompleted"],
    ["/cart/checkout_summary?p=buy&seats=3", "/cart/checkout_summary?p=buy&seats=3"],
    [`${SITE}/cart?tab=signup#plans`, "/cart?tab=signup#plans"],
    ["HTTP://LOCALHOST:4321/plans", "/plans"],
    ["/hub#account", "/hub#account"],
    ["/", "/"],
    ["/cart#caf\u00e9", "/cart#caf%C3%A9"],
    ["/cart?off=100%", "/cart?off=100%"],
  ])("keeps %j as %j", (target, expected) => {
    expect(safeRedirectPath(target, SITE)).toBe(expected);
  });

  it("takes absolute URLs only when it knows the site's origin", () => {
    expect(safeRedirectPath(`${SITE}/cart`)).toBeNull();
    expect(safeRedirectPath("/cart")).toBe("/cart");
  });

  // Pieces that attacks are made of, so that the fuzzer combines them more often than chance.
  const piece = fc.oneof(
    fc.constantFrom(
      "/",
      "//",
      "\\",
      "/\\",
      "%2f",
      "%2F",
      "%5c",
      "%25",
      "%0d%0a",
      "%00",
      "\t",
      "\n",
      "\r",
      "\u0000",
      "\u00a0",
      "\u2028",
      "\u202e",
      " ",
      "@",
      ":",
      "?",
      "#",
      ".",
      "..",
      "cart",
      "evil.example",
      "http:",
      "https:",
      "javascript:",
      SITE,
      "http://localhost:4321.evil.example",
    ),
    fc.string({ maxLength: 4, unit: "binary" }),
  );

  // Starting from real pages too, so that many inputs survive and the checks below do run.
  const start = fc.constantFrom("", "/", "/cart", "/hub", `${SITE}/cart`, SITE);

  it("answers null or a same-site path that is safe in a Location header", () => {
    fc.assert(
      fc.property(start, fc.array(piece, { maxLength: 8 }), (head, pieces) => {
        const out = safeRedirectPath(head + pieces.join(""), SITE);
        if (out === null) return;
        expect(out === "/" || /^\/[^/\\]/.test(out)).toBe(true);
        expect(out).toMatch(/^[\x21-\x7e]+$/);
        expect(new URL(out, "https://site.example").origin).toBe("https://site.example");
        // Idempotent: a stored safe path stays the same when checked again at redirect time.
        expect(safeRedirectPath(out, SITE)).toBe(out);
      }),
      { numRuns: 5000 },
    );
  });
});
