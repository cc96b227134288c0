import { describe, expect, it } from "vitest";
import {
  type AnalyticsOptions,
  createAnalytics,
  type InstrumentationBody,
  readConsentCookie,
  usageAnalyticsAllowed,
  writeConsentCookie,
} from "./analytics.ts";

/** sessionStorage of one browser session; a new one is a new session. */
function fakeSession() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

function setup(overrides: Partial<AnalyticsOptions> = {}) {
  const sent: InstrumentationBody[] = [];
  let allowed = true;
  const analytics = createAnalytics({
    send: (body) => sent.push(body),
    allowed: () => allowed,
    storage: fakeSession(),
    ...overrides,
  });
  return {
    analytics,
    sent,
    setAllowed: (value: boolean) => {
      allowed = value;
    },
  };
}

describe("instrumentation events", () => {
  it("sends the event name and properties", () => {
    const { analytics, sent } = setup();
    expect(analytics.track("plan selected", { product: "wv_single_12m" })).toBe(true);
    expect(sent).toEqual([
      { eventName: "plan selected", properties: { product: "wv_single_12m" } },
    ]);
  });

  it("sends nothing while the privacy preference says no", () => {
    const { analytics, sent, setAllowed } = setup();
    setAllowed(false);
    expect(analytics.track("plan selected")).toBe(false);
    expect(analytics.trackAddToCart()).toBe(false);
    setAllowed(true);
    // Held back, not used up: it fires once allowed.
    expect(analytics.trackAddToCart()).toBe(true);
    expect(sent.map((body) => body.eventName)).toEqual(["add to cart"]);
  });

  it("fires add-to-cart once per browser session", () => {
    const session = fakeSession();
    const first = setup({ storage: session });
    expect(first.analytics.trackAddToCart({ product: "a" })).toBe(true);
    expect(first.analytics.trackAddToCart({ product: "b" })).toBe(false);
    // Another page load of the same session.
    const reload = setup({ storage: session });
    expect(reload.analytics.trackAddToCart()).toBe(false);
    // A new browser session.
    expect(setup({ storage: fakeSession() }).analytics.trackAddToCart()).toBe(true);
    expect(first.sent).toEqual([{ eventName: "add to cart", properties: { product: "a" } }]);
  });

  it("fires 'experiment started' once per user per test per session", () => {
    const { analytics, sent } = setup();
    const start = (userId: number, test: string, variant = "b") =>
      analytics.trackExperimentStarted({ userId, test, variant });
    expect([
      start(1, "remove-business"),
      start(1, "remove-business", "a"),
      start(1, "price-test"),
      start(2, "remove-business"),
      start(2, "remove-business"),
    ]).toEqual([true, false, true, true, false]);
    expect(sent[0]).toEqual({
      eventName: "experiment started",
      properties: { test: "remove-business", variant: "b" },
    });
  });

  it("still fires once per page when storage is blocked", () => {
    const blocked = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    const { analytics, sent } = setup({ storage: blocked });
    expect([analytics.trackAddToCart(), analytics.trackAddToCart()]).toEqual([true, false]);
    expect(sent).toHaveLength(1);
  });

  it("looks sessionStorage up at the first once-per-session event, not at creation", () => {
    const session = fakeSession();
    let lookups = 0;
    const { analytics } = setup({
      storage: () => {
        lookups += 1;
        return session;
      },
    });
    expect(analytics.track("plan selected")).toBe(true);
    expect(lookups).toBe(0);
    expect([analytics.trackAddToCart(), analytics.trackAddToCart()]).toEqual([true, false]);
    expect(lookups).toBe(1);
    // What it remembered is in that storage: a new page of the same session does not fire again.
    expect(setup({ storage: session }).analytics.trackAddToCart()).toBe(false);
  });

  it("still fires once per page when there is no sessionStorage", () => {
    const { analytics, sent } = setup({ storage: () => null });
    expect([analytics.trackAddToCart(), analytics.trackAddToCart()]).toEqual([true, false]);
    expect(sent).toHaveLength(1);
  });

  it("keeps the checkout running when sending fails", async () => {
    const { analytics } = setup({ send: () => Promise.reject(new Error("offline")) });
    expect(analytics.track("x")).toBe(true);
    await Promise.resolve();
  });
});

describe("usage analytics preference (spec 3.2)", () => {
  it.each([
    [
      "the value when set",
      [{ key: "usage_analytics_web", value: false, defaultValue: true }],
      null,
      false,
    ],
    [
      "the value when true",
      [{ key: "usage_analytics_web", value: true, defaultValue: false }],
      false,
      true,
    ],
    [
      "the default without a value",
      [{ key: "usage_analytics_web", defaultValue: true }],
      null,
      true,
    ],
    ["a string value", [{ key: "usage_analytics_web", value: "false" }], true, false],
    ["another key does not count", [{ key: "email", value: true }], null, false],
    ["the visitor's cookie without a preference", [], true, true],
    ["nothing known: no", null, null, false],
  ] as const)("uses %s", (_, preferences, consentCookie, expected) => {
    expect(usageAnalyticsAllowed({ preferences, consentCookie })).toBe(expected);
  });
});

describe("consent cookie", () => {
  it("lives one year", () => {
    const doc = { cookie: "" };
    writeConsentCookie(doc, true);
    expect(doc.cookie).toBe(
      "usage_analytics_web=true; Max-Age=31536000; Path=/; SameSite=Lax; Secure",
    );
    writeConsentCookie(doc, false, { secure: false });
    expect(doc.cookie).toBe("usage_analytics_web=false; Max-Age=31536000; Path=/; SameSite=Lax");
  });

  it("reads back among other cookies", () => {
    expect(readConsentCookie("a=1; usage_analytics_web=true; b=2")).toBe(true);
    expect(readConsentCookie("usage_analytics_web=false")).toBe(false);
    expect(readConsentCookie("usage_analytics_web_old=true")).toBeNull();
    expect(readConsentCookie("")).toBeNull();
  });
});
