// Usage analytics (spec 3.2, 4, 6, 7 and 9): instrumentation events to
// POST /api/4/analytics/instrumentation through an injected `send`, only while the person's
// privacy preference allows it; add-to-cart once per browser session; A/B 'experiment started'
// once per user per test per session; and the consent cookie, which lives one year.

const ADD_TO_CART_EVENT = "add to cart";
const EXPERIMENT_STARTED_EVENT = "experiment started";
/** The privacy preference that governs usage analytics on the web (spec 3.2). */
const USAGE_ANALYTICS_KEY = "usage_analytics_web";
const CONSENT_COOKIE = "usage_analytics_web";
/** One year (spec 9: 31536000 seconds). */
const CONSENT_MAX_AGE_SECONDS = 31_536_000;

export type InstrumentationBody = { eventName: string; properties: Record<string, unknown> };

/** A privacy preference entry as the server sends it (key, value, defaultValue). */
export type PrivacyPreference = {
  key: string;
  value?: boolean | string | null;
  defaultValue?: boolean | string | null;
};

function asBoolean(value: unknown): boolean | null {
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  return null;
}

/**
 * Whether usage analytics may run: the account's usage_analytics_web preference (its value, else
 * its default), else the consent cookie a visitor set, else no. Nothing is sent before a person
 * has a say: the GDPR region flag defaults to true (spec 3.1).
 */
export function usageAnalyticsAllowed(input: {
  preferences?: readonly PrivacyPreference[] | null;
  consentCookie?: boolean | null;
}): boolean {
  const entry = input.preferences?.find((preference) => preference.key === USAGE_ANALYTICS_KEY);
  const fromAccount = entry ? (asBoolean(entry.value) ?? asBoolean(entry.defaultValue)) : null;
  return fromAccount ?? input.consentCookie ?? false;
}

/** The consent cookie's value in a Cookie header or document.cookie; null when unset. */
export function readConsentCookie(cookies: string): boolean | null {
  for (const part of cookies.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === CONSENT_COOKIE) return asBoolean(rest.join("="));
  }
  return null;
}

/** Writes the consent cookie for one year; returns the cookie string written. */
export function writeConsentCookie(
  doc: { cookie: string },
  allowed: boolean,
  options: { secure?: boolean } = {},
): string {
  const cookie = [
    `${CONSENT_COOKIE}=${allowed ? "true" : "false"}`,
    `Max-Age=${CONSENT_MAX_AGE_SECONDS}`,
    "Path=/",
    "SameSite=Lax",
    ...(options.secure === false ? [] : ["Secure"]),
  ].join("; ");
  doc.cookie = cookie;
  return cookie;
}

type SessionStore = Pick<Storage, "getItem" | "setItem">;

export type AnalyticsOptions = {
  /** Sends one event (the API client's instrumentation call). Its failures are ignored. */
  send: (body: InstrumentationBody) => unknown;
  /** Read at each event, so a change of preference applies at once. */
  allowed: () => boolean;
  /**
   * sessionStorage: what has fired this browser session. A function is called at the first event
   * that needs it, not at creation: in Chromium the first touch of sessionStorage is a
   * synchronous round trip to the browser process, which start-up should not wait on.
   */
  storage?: SessionStore | null | (() => SessionStore | null);
};

export type Analytics = {
  /** Sends an event if usage analytics is allowed; true when sent. */
  track(eventName: string, properties?: Record<string, unknown>): boolean;
  /** The add-to-cart event, at most once per browser session. */
  trackAddToCart(properties?: Record<string, unknown>): boolean;
  /** 'experiment started', at most once per user per test per session. */
  trackExperimentStarted(
    experiment: { userId: string | number; test: string; variant: string },
    properties?: Record<string, unknown>,
  ): boolean;
};

const KEY_PREFIX = "checkout.analytics.";

export function createAnalytics(options: AnalyticsOptions): Analytics {
  // Where storage is blocked (some private modes, sandboxed frames), once per page instead.
  const fallback = new Set<string>();
  let resolved: SessionStore | null | undefined;
  const storage = (): SessionStore | null => {
    if (resolved === undefined)
      resolved =
        typeof options.storage === "function" ? options.storage() : (options.storage ?? null);
    return resolved;
  };
  const seen = (key: string): boolean => {
    try {
      if (storage()?.getItem(KEY_PREFIX + key) === "1") return true;
    } catch {
      // Storage refused: the page's own memory answers.
    }
    return fallback.has(key);
  };
  const mark = (key: string): void => {
    fallback.add(key);
    try {
      storage()?.setItem(KEY_PREFIX + key, "1");
    } catch {
      // Storage refused: remembered for this page only.
    }
  };

  function track(eventName: string, properties: Record<string, unknown> = {}): boolean {
    if (eventName.trim() === "" || !options.allowed()) return false;
    try {
      Promise.resolve(options.send({ eventName, properties })).catch(() => {});
    } catch {
      // Analytics never breaks the checkout.
    }
    return true;
  }

  function once(key: string, eventName: string, properties: Record<string, unknown>): boolean {
    // Checked before consent is: an event held back for consent may still fire later on.
    if (seen(key) || !track(eventName, properties)) return false;
    mark(key);
    return true;
  }

  return {
    track,
    trackAddToCart: (properties = {}) => once("addToCart", ADD_TO_CART_EVENT, properties),
    trackExperimentStarted: ({ userId, test, variant }, properties = {}) =>
      once(
        `experiment.${encodeURIComponent(String(userId))}.${encodeURIComponent(test)}`,
        EXPERIMENT_STARTED_EVENT,
        { ...properties, test, variant },
      ),
  };
}
