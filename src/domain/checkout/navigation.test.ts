import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SchoolDistrictRule } from "../account/email-rules.ts";
import { PUBLIC_PAGES, type RedirectUser, safeRedirectPath } from "../account/redirects.ts";
import { decideNavigation, type NavigationInput, returnAfterSignIn } from "./navigation.ts";
import { parseCheckoutQuery } from "./query.ts";
import { HASH_SCREENS, PATH_SCREENS, parseRoute } from "./screens.ts";

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

const district: SchoolDistrictRule = {
  emailDomains: ["district.example"],
  studentUrl: "https://www.district.example/video/students",
  staffUrl: "https://www.district.example/video/staff",
  studentPattern: "^[^@]+@students\\.district\\.example$",
};

/** The decision for a URL the browser shows, as the router will ask for it. */
function at(
  url: string,
  session: { isAuth: boolean; user?: Partial<RedirectUser> | null },
): ReturnType<typeof decideNavigation> {
  const parsed = new URL(url, "https://site.example");
  return decideNavigation({
    route: parseRoute(parsed.pathname, parsed.hash),
    query: parseCheckoutQuery(parsed.search),
    currentUrl: `${parsed.pathname}${parsed.search}${parsed.hash}`,
    isAuth: session.isAuth,
    user: session.user === null || !session.isAuth ? null : { ...user, ...session.user },
    districts: [district],
  });
}

const visitor = { isAuth: false, user: null };
const signedIn = { isAuth: true, user: {} };

describe("navigation: every redirect rule of spec 2.5, from the URL", () => {
  it.each([
    // The extension landing requires login, otherwise goes to sign-in (and back).
    ["/cart/rce", visitor, { kind: "go", to: "/sign-in?redirect=%2Fcart%2Frce" }],
    ["/cart/rce", signedIn, { kind: "stay" }],
    // Invitation pages never redirect, whoever comes.
    ["/cart/invite", visitor, { kind: "stay" }],
    ["/cart/invite/", visitor, { kind: "stay" }],
    ["/cart/invite/C0DE", { isAuth: true, user: { domainStatus: "blocked" } }, { kind: "stay" }],
    ["/cart/invite", { isAuth: true, user: { disableAccountUpgrades: true } }, { kind: "stay" }],
    // Other pages require login: sign-in with a redirect back, or the plans sign-up tab.
    ["/cart#checkout", visitor, { kind: "go", to: "/sign-in?redirect=%2Fcart%23checkout" }],
    [
      "/cart/checkout_summary?seats=3",
      visitor,
      { kind: "go", to: "/sign-in?redirect=%2Fcart%2Fcheckout_summary%3Fseats%3D3" },
    ],
    [
      "/cart?p=trial&product=wv_bizoct17_trial&tier=business#checkout",
      visitor,
      {
        kind: "go",
        to:
          "/cart/plans?tab=signup&p=trial&product=wv_bizoct17_trial&tier=business" +
          "&redirect=%2Fcart%3Fp%3Dtrial%26product%3Dwv_bizoct17_trial%26tier%3Dbusiness%23checkout",
      },
    ],
    ["/cart#auth", visitor, { kind: "stay" }],
    ["/cart#signup", visitor, { kind: "stay" }],
    ["/cart/plans?tab=signup", visitor, { kind: "stay" }],
    // An invalid or unverified education e-mail goes to the invalid-email page.
    [
      "/cart?p=buy&plan=wv_teacher_12m&validateEduEmail=true#checkout",
      { isAuth: true, user: { mustValidateEducationEmail: true, educationEmailValid: false } },
      {
        kind: "go",
        to: "/cart/invalid-email?p=buy&tier=education&plan=wv_teacher_12m&validateEduEmail=true",
      },
    ],
    [
      "/cart/invalid-email?p=buy",
      { isAuth: true, user: { mustValidateEducationEmail: true, educationEmailValid: false } },
      { kind: "stay" },
    ],
    // Upgrades disabled: a mobile-store or wallet subscription, or disableAccountUpgrades.
    [
      "/cart#checkout",
      { isAuth: true, user: { mobileOrWalletBlocked: true } },
      { kind: "go", to: "/cart#upgrades-disabled" },
    ],
    [
      "/cart/plans",
      { isAuth: true, user: { disableAccountUpgrades: true } },
      { kind: "go", to: "/cart#upgrades-disabled" },
    ],
    [
      "/cart#upgrades-disabled",
      { isAuth: true, user: { disableAccountUpgrades: true } },
      { kind: "stay" },
    ],
    // The school district's addresses go to their own pages when the product is free.
    [
      "/cart#plans",
      { isAuth: true, user: { email: "kid@students.district.example" } },
      { kind: "leave", to: district.studentUrl },
    ],
    [
      "/cart#plans",
      { isAuth: true, user: { email: "teacher@district.example" } },
      { kind: "leave", to: district.staffUrl },
    ],
    [
      "/cart#plans",
      { isAuth: true, user: { email: "teacher@district.example", productIsFree: false } },
      { kind: "stay" },
    ],
    // A blocked e-mail domain stops the flow.
    [
      "/cart#checkout",
      { isAuth: true, user: { domainStatus: "blocked" } },
      { kind: "stop", reason: "blocked_domain" },
    ],
    // Not found shows to everyone.
    ["/cart#nope", visitor, { kind: "stay" }],
    ["/cart", visitor, { kind: "stay" }],
  ] as const)("%s (%o) → %o", (url, session, expected) => {
    expect(at(url, session)).toEqual(expected);
  });

  it("keeps the extension's parameters on every redirect in the extension flow", () => {
    expect(at("/cart?origin=rce&flow=extension#checkout", visitor)).toEqual({
      kind: "go",
      to:
        "/sign-in?redirect=%2Fcart%3Forigin%3Drce%26flow%3Dextension%23checkout" +
        "&origin=rce&flow=extension&avoidRedirecting=true",
    });
    expect(
      at("/cart?flow=extension#checkout", { isAuth: true, user: { disableAccountUpgrades: true } }),
    ).toEqual({
      kind: "go",
      to: "/cart?origin=rce&flow=extension&avoidRedirecting=true#upgrades-disabled",
    });
  });

  it("sends visitors back to the screen itself when the address is not a safe one", () => {
    expect(at("/cart?x=%E2%80%AE#checkout", visitor)).toEqual({
      kind: "go",
      to: "/sign-in?redirect=%2Fcart%23checkout",
    });
    expect(at(`/cart?p=&junk=${"x".repeat(1500)}#cancel-trial`, visitor)).toEqual({
      kind: "go",
      to: "/sign-in?redirect=%2Fcart%23cancel-trial",
    });
  });

  it("does not leave for a district page that is not https (a catalogue mistake)", () => {
    const input: NavigationInput = {
      route: parseRoute("/cart", "#plans"),
      query: parseCheckoutQuery(""),
      currentUrl: "/cart#plans",
      isAuth: true,
      user: { ...user, email: "teacher@district.example" },
      districts: [{ ...district, staffUrl: "javascript:alert(1)" }],
    };
    expect(decideNavigation(input)).toEqual({ kind: "stay" });
  });
});

describe("the redirect back after sign-in", () => {
  it("prefers the checked redirect parameter, then the flowParameters location", () => {
    expect(returnAfterSignIn(parseCheckoutQuery("?redirect=%2Fcart%23checkout"))).toBe(
      "/cart#checkout",
    );
    const location = btoa(JSON.stringify({ location: "/cart#essentials" }));
    expect(returnAfterSignIn(parseCheckoutQuery(`?flowParameters=${location}`))).toBe(
      "/cart#essentials",
    );
    expect(returnAfterSignIn(parseCheckoutQuery("?redirect=%2F%2Fevil.example"))).toBe(
      "/cart/plans",
    );
  });

  it("keeps the extension flow", () => {
    expect(returnAfterSignIn(parseCheckoutQuery("?origin=rce&redirect=%2Fcart%2Frce"))).toBe(
      "/cart/rce?origin=rce&flow=extension&avoidRedirecting=true",
    );
  });
});

describe("no decision ever leaves the site", () => {
  const piece = fc.oneof(
    fc.constantFrom(
      "/",
      "//",
      "\\",
      "%2f",
      "%5c",
      "%09",
      "%0a",
      "\t",
      "\n",
      "@",
      ":",
      "#",
      "?",
      "&",
      "=",
      "redirect=",
      "flowParameters=",
      "p=buy",
      "origin=rce",
      "evil.example",
      "https:",
      "https://evil.example",
    ),
    fc.string({ maxLength: 4, unit: "binary" }),
  );
  const text = fc.array(piece, { maxLength: 10 }).map((pieces) => pieces.join(""));
  const screenUrl = fc.constantFrom(
    ...HASH_SCREENS.map((screen) => `/cart#${screen}`),
    ...PATH_SCREENS.map((screen) => `/cart/${screen}`),
    "/cart",
    "/cart/nope",
  );
  const facts = fc.record({
    email: fc.constantFrom("a@example.com", "kid@students.district.example", "t@district.example"),
    domainStatus: fc.constantFrom(null, "blocked", "ok"),
    productIsFree: fc.boolean(),
    disableAccountUpgrades: fc.boolean(),
    mobileOrWalletBlocked: fc.boolean(),
    mustValidateEducationEmail: fc.boolean(),
    educationEmailValid: fc.constantFrom(null, true, false),
    allowedThrough: fc.boolean(),
  });

  it("answers stay, stop, a same-site path whose redirect-back is safe, or a district page", () => {
    fc.assert(
      fc.property(
        screenUrl,
        text,
        text,
        fc.boolean(),
        fc.boolean(),
        fc.option(facts),
        (page, search, currentUrl, ownUrl, isAuth, userFacts) => {
          const parsed = new URL(page, "https://site.example");
          const decision = decideNavigation({
            route: parseRoute(parsed.pathname, parsed.hash),
            query: parseCheckoutQuery(search),
            currentUrl: ownUrl ? `${page}?${search}` : currentUrl,
            isAuth,
            user: userFacts,
            districts: [district],
          });
          if (decision.kind === "leave") {
            expect([district.studentUrl, district.staffUrl]).toContain(decision.to);
          }
          if (decision.kind !== "go") return;
          expect(safeRedirectPath(decision.to)).toBe(decision.to);
          const back = new URL(decision.to, "https://site.example").searchParams.get("redirect");
          if (back !== null) expect(safeRedirectPath(back)).toBe(back);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("lets visitors stay on every public page", () => {
    const publicScreens = [...HASH_SCREENS, ...PATH_SCREENS].filter((screen) =>
      (PUBLIC_PAGES as readonly string[]).includes(screen),
    );
    expect(publicScreens.length).toBeGreaterThan(5);
    for (const screen of publicScreens) {
      const url = (HASH_SCREENS as readonly string[]).includes(screen)
        ? `/cart#${screen}`
        : `/cart/${screen}`;
      expect(at(url, visitor)).toEqual({ kind: "stay" });
    }
  });
});
