import { describe, expect, it } from "vitest";
import { PUBLIC_PAGES } from "../account/redirects.ts";
import {
  detectHost,
  HASH_SCREENS,
  hrefFor,
  PATH_SCREENS,
  pageName,
  parseRoute,
  requiresLogin,
  SCREEN_TITLES,
  summaryReplacement,
} from "./screens.ts";

describe("parseRoute: hash routes on /cart (spec 2.1)", () => {
  it.each(HASH_SCREENS.map((screen) => [screen]))("/cart#%s shows its screen", (screen) => {
    expect(parseRoute("/cart", `#${screen}`)).toEqual({ kind: "screen", screen, via: "hash" });
  });

  it.each([
    ["/cart", ""],
    ["/cart", "#"],
    ["/cart/", ""],
    ["/cart", "#nope"],
    ["/cart", "#Checkout"],
    ["/cart", "#checkout_other"],
    ["/cart", "#__proto__"],
    ["/cart", "#constructor"],
    ["/cart", "#invalid-email"],
  ])("%s with hash %j is not found", (pathname, hash) => {
    expect(parseRoute(pathname, hash)).toEqual({ kind: "not-found" });
  });

  it("accepts the hash with or without its #", () => {
    expect(parseRoute("/cart", "checkout")).toEqual({
      kind: "screen",
      screen: "checkout",
      via: "hash",
    });
  });
});

describe("parseRoute: path pages under /cart (spec 2.2)", () => {
  it.each(PATH_SCREENS.map((screen) => [screen]))("/cart/%s shows its screen", (screen) => {
    expect(parseRoute(`/cart/${screen}`, "")).toEqual({ kind: "screen", screen, via: "path" });
    expect(parseRoute(`/cart/${screen}/`, "")).toEqual({ kind: "screen", screen, via: "path" });
  });

  it("serves /invite and /invite/ as the invitation page, with a code when one follows", () => {
    expect(parseRoute("/cart/invite/", "")).toMatchObject({ screen: "invite" });
    expect(parseRoute("/cart/invite/AbC-123_x", "")).toEqual({
      kind: "screen",
      screen: "invite",
      via: "path",
      inviteCode: "AbC-123_x",
    });
  });

  it("ignores the hash on a path page", () => {
    expect(parseRoute("/cart/plans", "#checkout")).toMatchObject({ screen: "plans", via: "path" });
  });

  it.each([
    "/cart/nope",
    "/cart/checkout",
    "/cart/signup",
    "/cart/Plans",
    "/cart//plans",
    "/cart/plans/extra",
    "/cart/invite/a/b",
    "/cart/invite/%2e%2e",
    "/cart/__proto__",
    "/cartplans",
    "/carts",
    "/plans",
    "/",
  ])("%s is not found", (pathname) => {
    expect(parseRoute(pathname, "#checkout")).toEqual({ kind: "not-found" });
  });
});

describe("hrefFor", () => {
  it("builds hash routes on the base path with the query before the hash", () => {
    expect(hrefFor("checkout", { p: "buy", product: "wv_single_12m", tier: "personal" })).toBe(
      "/cart?p=buy&product=wv_single_12m&tier=personal#checkout",
    );
    expect(hrefFor("upgrades-disabled")).toBe("/cart#upgrades-disabled");
  });

  it("builds path pages, leaving out empty values", () => {
    expect(hrefFor("plans", { tab: "signup", p: null, modal: false, essential: true })).toBe(
      "/cart/plans?tab=signup&essential=true",
    );
    expect(hrefFor("new-password", "?vc=abc&email=a%40b.example")).toBe(
      "/cart/new-password?vc=abc&email=a%40b.example",
    );
  });

  it("uses the hash form of plans and the summary only when asked", () => {
    expect(hrefFor("checkout_summary")).toBe("/cart/checkout_summary");
    expect(hrefFor("checkout_summary", undefined, { via: "hash" })).toBe("/cart#checkout_summary");
    expect(hrefFor("rce", undefined, { via: "hash" })).toBe("/cart/rce");
    expect(hrefFor("cancel-trial", undefined, { via: "path" })).toBe("/cart#cancel-trial");
  });

  it("round-trips through parseRoute for every screen", () => {
    for (const screen of Object.keys(SCREEN_TITLES) as (keyof typeof SCREEN_TITLES)[]) {
      const url = new URL(hrefFor(screen, { p: "trial" }), "https://site.example");
      expect(parseRoute(url.pathname, url.hash)).toMatchObject({ kind: "screen", screen });
    }
  });
});

describe("screen titles and login", () => {
  it("uses the spec's words for the reset password page", () => {
    expect(SCREEN_TITLES["new-password"]).toBe("Reset password");
  });

  it("has a title for every screen", () => {
    for (const screen of [...HASH_SCREENS, ...PATH_SCREENS]) {
      expect(SCREEN_TITLES[screen].length).toBeGreaterThan(0);
    }
  });

  it("lets visitors see the public pages and invitations, nothing else", () => {
    const open = [...HASH_SCREENS, ...PATH_SCREENS].filter((screen) => !requiresLogin(screen));
    expect([...new Set(open)].sort()).toEqual(
      [
        "about-you",
        "auth",
        "forgot-password",
        "home",
        "invite",
        "login",
        "new-password",
        "plans",
        "segmentation-info-redirect",
        "sign-up",
        "signup",
        "template-redirect",
        "what-for",
        "what-role",
      ].sort(),
    );
    expect(requiresLogin("rce")).toBe(true);
    expect(requiresLogin("checkout_summary")).toBe(true);
  });

  it("names every screen by a page that decideRedirect knows or treats as private", () => {
    expect(pageName("auth")).toBe("sign-in");
    expect(PUBLIC_PAGES).toContain(pageName("auth"));
    expect(pageName("checkout_single_export")).toBe("checkout_single_export");
  });
});

describe("the order summary per host (spec 2.2)", () => {
  const hashSummary = parseRoute("/cart", "#checkout_summary");
  const pathSummary = parseRoute("/cart/checkout_summary", "");

  it("detects the host: the extension flow first, then the hub frame", () => {
    const none = { flow: null, origin: null };
    expect(detectHost({ inFrame: false, query: none })).toBe("standalone");
    expect(detectHost({ inFrame: true, query: none })).toBe("hub");
    expect(detectHost({ inFrame: true, query: { flow: null, origin: "rce" } })).toBe("extension");
    expect(detectHost({ inFrame: false, query: { flow: "extension", origin: null } })).toBe(
      "extension",
    );
  });

  it("inside the hub frame replaces the browser-path summary with the hash route", () => {
    expect(summaryReplacement(pathSummary, "hub", { search: "?p=buy" })).toBe(
      "/cart?p=buy#checkout_summary",
    );
    expect(summaryReplacement(hashSummary, "hub", { search: "?p=buy" })).toBeNull();
  });

  it("in the extension replaces the hash route with the browser path", () => {
    expect(summaryReplacement(hashSummary, "extension", { search: "?origin=rce" })).toBe(
      "/cart/checkout_summary?origin=rce",
    );
    expect(summaryReplacement(pathSummary, "extension", { search: "" })).toBeNull();
  });

  it("keeps either form standalone, and never touches other screens", () => {
    expect(summaryReplacement(hashSummary, "standalone", { search: "" })).toBeNull();
    expect(summaryReplacement(pathSummary, "standalone", { search: "" })).toBeNull();
    expect(summaryReplacement(parseRoute("/cart", "#checkout"), "hub", { search: "" })).toBeNull();
  });
});
