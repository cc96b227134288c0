import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeFlowParameters,
  isExtensionFlow,
  MAX_FLOW_PARAMETERS_LENGTH,
  parseCheckoutQuery,
  withExtensionParams,
} from "./query.ts";

const SITE = "https://site.example";

/** base64 (or base64url) of a JSON text, as a sender would put it in flowParameters. */
function b64(json: string, url = false): string {
  const bytes = new TextEncoder().encode(json);
  const text = btoa(String.fromCharCode(...bytes));
  return url ? text.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") : text;
}

const flow = (value: unknown, url = false) => b64(JSON.stringify(value), url);
const withFlow = (encoded: string) =>
  `?${new URLSearchParams({ flowParameters: encoded }).toString()}`;

describe("parseCheckoutQuery (spec 2.4)", () => {
  it("reads a buy link from the plans page", () => {
    const query = parseCheckoutQuery("?p=buy&product=wv_single_12m&tier=personal");
    expect(query).toMatchObject({
      p: "buy",
      product: "wv_single_12m",
      productCode: "wv_single_12m",
      tier: "personal",
      flowParameters: null,
      redirect: null,
    });
  });

  it("takes the plan when no product is given", () => {
    expect(parseCheckoutQuery("p=trial&plan=wv_edu_trial").productCode).toBe("wv_edu_trial");
  });

  it("reads every parameter of the spec", () => {
    const query = parseCheckoutQuery(
      "?premium=true&availableProducts=wv_single_12m,%20wv_unloct17_12m,bad%20code&ctv=abc" +
        "&minutes=12.5&productCodes=single_export_hd,single_export_4k&720=true&1080=true" +
        "&flow=extension&origin=rce&essential=true&modal=true&avoidRedirecting=true" +
        "&templateId=tpl-42&validateEduEmail=true&vc=v3r1fy&email=a%2Bb%40school.example" +
        "&tab=signup",
    );
    expect(query).toMatchObject({
      premium: true,
      availableProducts: ["wv_single_12m", "wv_unloct17_12m"],
      ctv: "abc",
      minutes: 12.5,
      productCodes: ["single_export_hd", "single_export_4k"],
      resolution: "1080",
      flow: "extension",
      origin: "rce",
      essential: true,
      modal: true,
      avoidRedirecting: true,
      templateId: "tpl-42",
      validateEduEmail: true,
      vc: "v3r1fy",
      email: "a+b@school.example",
      tab: "signup",
    });
  });

  it.each([
    ["p=sell", { p: null }],
    ["product=wv_single_12m%22%3E%3Cscript%3E", { product: null, productCode: null }],
    ["product=../api", { product: null }],
    ["tier=personal%0a", { tier: null }],
    ["minutes=-3", { minutes: null }],
    ["minutes=1e9", { minutes: null }],
    ["720=false&essential=no&modal=0", { resolution: null, essential: false, modal: false }],
    ["2160=true&720=true", { resolution: "2160" }],
    ["modal", { modal: true }],
    ["templateId=%3Cx%3E", { templateId: null }],
    ["email=a%E2%80%AE@x.example", { email: null }],
    ["availableProducts=all", { availableProducts: ["all"] }],
    ["", { p: null, availableProducts: [], premium: false, vc: null }],
  ])("refuses or normalises %j", (search, expected) => {
    expect(parseCheckoutQuery(search)).toMatchObject(expected);
  });
});

describe("flowParameters", () => {
  it("decodes base64 JSON and keeps a location of this site", () => {
    const encoded = flow({ location: "/cart?p=buy#checkout", step: 2 });
    expect(parseCheckoutQuery(withFlow(encoded)).flowParameters).toEqual({
      location: "/cart?p=buy#checkout",
      values: { location: "/cart?p=buy#checkout", step: 2 },
    });
  });

  it("accepts base64url, unpadded, and a + that the query turned into a space", () => {
    const value = { location: "/hub#account", note: "ünïcödé ~~~>>>???" };
    expect(decodeFlowParameters(flow(value, true))?.location).toBe("/hub#account");
    const plain = flow(value);
    expect(plain).toContain("+");
    expect(parseCheckoutQuery(`?flowParameters=${plain}`).flowParameters?.location).toBe(
      "/hub#account",
    );
  });

  it("reads a location given as parts", () => {
    const value = { location: { pathname: "/cart", search: "p=buy", hash: "checkout" } };
    expect(decodeFlowParameters(flow(value))?.location).toBe("/cart?p=buy#checkout");
  });

  it("accepts an absolute URL only of the site's own origin", () => {
    const own = flow({ location: `${SITE}/cart#plans` });
    expect(decodeFlowParameters(own, SITE)?.location).toBe("/cart#plans");
    expect(decodeFlowParameters(own)?.location).toBeNull();
  });

  it.each([
    ["not base64", "%%%"],
    ["base64 of non-JSON", b64("location=/cart")],
    ["a JSON array", flow(["/cart"])],
    ["a JSON string", flow("/cart")],
    ["invalid UTF-8", btoa("\u00ff\u00fe{}")],
    ["__proto__ at the top", b64('{"__proto__":{"admin":true},"location":"/cart"}')],
    ["constructor deep down", b64('{"a":[{"b":{"constructor":{"prototype":{}}}}]}')],
    ["prototype as a key", b64('{"x":{"prototype":1}}')],
    ["nesting deeper than 8", b64(`${'{"a":'.repeat(9)}1${"}".repeat(9)}`)],
    ["too long", "A".repeat(MAX_FLOW_PARAMETERS_LENGTH + 4)],
    ["empty", ""],
  ])("refuses %s", (_, encoded) => {
    expect(decodeFlowParameters(encoded)).toBeNull();
  });

  it("never pollutes the prototype of plain objects", () => {
    decodeFlowParameters(b64('{"__proto__":{"polluted":true}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

// The usual open-redirect payloads (issue 8), plain and encoded.
const OPEN_REDIRECTS = [
  "//evil.example",
  "///evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "https:evil.example",
  "https://evil.example/cart",
  "http:/\\evil.example",
  "/%2F%2Fevil.example",
  "/%5Cevil.example",
  "%2F%2Fevil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/%09/evil.example",
  "/%0a/evil.example",
  "\t//evil.example",
  "javascript:alert(1)",
  `${SITE}@evil.example/cart`,
  "https://site.example.evil.example/cart",
];

describe("open redirects", () => {
  it.each(OPEN_REDIRECTS.map((payload) => [payload]))(
    "drops %j as a flowParameters location",
    (payload) => {
      const query = parseCheckoutQuery(withFlow(flow({ location: payload })), { ownOrigin: SITE });
      expect(query.flowParameters?.location).toBeNull();
    },
  );

  it.each(OPEN_REDIRECTS.map((payload) => [payload]))(
    "drops %j as a redirect-back parameter",
    (payload) => {
      const search = `?${new URLSearchParams({ redirect: payload })}`;
      expect(parseCheckoutQuery(search, { ownOrigin: SITE }).redirect).toBeNull();
      // The same payload percent-encoded once more by hand.
      const twice = `?redirect=${encodeURIComponent(encodeURIComponent(payload))}`;
      expect(parseCheckoutQuery(twice, { ownOrigin: SITE }).redirect).toBeNull();
    },
  );

  it("keeps a redirect-back parameter to the checkout", () => {
    expect(parseCheckoutQuery("?redirect=%2Fcart%23checkout").redirect).toBe("/cart#checkout");
  });

  const piece = fc.oneof(
    fc.constantFrom(
      "/",
      "//",
      "\\",
      "%2f",
      "%5c",
      "%09",
      "\t",
      "\n",
      "@",
      ":",
      "#",
      "?",
      "..",
      "cart",
      "evil.example",
      "https:",
      SITE,
    ),
    fc.string({ maxLength: 4, unit: "binary" }),
  );
  const target = fc
    .tuple(fc.constantFrom("", "/", "/cart", SITE), fc.array(piece, { maxLength: 8 }))
    .map(([head, pieces]) => head + pieces.join(""));
  const location = fc.oneof(
    target,
    fc.record({ pathname: target, search: target, hash: target }),
    fc.anything(),
  );

  function isSameSitePath(out: string | null | undefined): boolean {
    if (out === null || out === undefined) return true;
    return (
      (out === "/" || /^\/[^/\\]/.test(out)) &&
      new URL(out, "https://other.example").origin === "https://other.example"
    );
  }

  it("resolves a flowParameters location only to null or a same-site path", () => {
    fc.assert(
      fc.property(location, fc.boolean(), (value, url) => {
        const query = parseCheckoutQuery(withFlow(flow({ location: value }, url)), {
          ownOrigin: SITE,
        });
        expect(isSameSitePath(query.flowParameters?.location)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("resolves a redirect-back parameter only to null or a same-site path", () => {
    fc.assert(
      fc.property(target, (value) => {
        const search = `?${new URLSearchParams({ redirect: value })}`;
        expect(isSameSitePath(parseCheckoutQuery(search, { ownOrigin: SITE }).redirect)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("never throws on any search string or flowParameters text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(() => {
          parseCheckoutQuery(text);
          decodeFlowParameters(text);
        }).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});

describe("the extension flow", () => {
  it("is detected by flow=extension or origin=rce", () => {
    expect(isExtensionFlow(parseCheckoutQuery("flow=extension"))).toBe(true);
    expect(isExtensionFlow(parseCheckoutQuery("origin=rce"))).toBe(true);
    expect(isExtensionFlow(parseCheckoutQuery("flow=hub&origin=web"))).toBe(false);
  });

  it("adds origin=rce, flow=extension and avoidRedirecting to every link, before the hash", () => {
    expect(withExtensionParams("/cart?p=buy#checkout")).toBe(
      "/cart?p=buy&origin=rce&flow=extension&avoidRedirecting=true#checkout",
    );
    expect(withExtensionParams("/cart/plans?origin=rce")).toBe(
      "/cart/plans?origin=rce&flow=extension&avoidRedirecting=true",
    );
    expect(withExtensionParams(`${SITE}/sign-in`)).toBe(
      `${SITE}/sign-in?origin=rce&flow=extension&avoidRedirecting=true`,
    );
  });

  it("leaves what is not a link of the site alone", () => {
    expect(withExtensionParams("//evil.example/x")).toBe("//evil.example/x");
    expect(withExtensionParams("mailto:a@b.example")).toBe("mailto:a@b.example");
  });
});
