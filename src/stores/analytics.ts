// Usage analytics of the checkout (spec 7), loaded after start-up and never with the app's shell
// (the JavaScript budget before the payment step): instrumentation only while the person's privacy
// preference allows, the consent cookie, and the A/B tests' 'experiment started' events.

import { createAnalytics, writeConsentCookie } from "../browser/analytics.ts";
import { endpoints } from "../contract/endpoints.ts";
import { api } from "./api.ts";
import { $user } from "./user.ts";

function sessionStorageOrNull(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export const analytics = createAnalytics({
  send: (body) => api().call(endpoints.instrumentation, { body }),
  allowed: () => $user.get().privacyUsageAnalytics,
  // Looked up at the first once-per-session event, not when this module loads (see the option).
  storage: sessionStorageOrNull,
});

/**
 * After start-up: the consent cookie follows the account's privacy preference (one year), and
 * each A/B test the account is in reports 'experiment started' once per session.
 */
export function startExperiments(win: Window): void {
  const user = $user.get();
  if (!user.isAuth) return;
  writeConsentCookie(win.document, user.privacyUsageAnalytics, {
    secure: win.location.protocol === "https:",
  });
  for (const test of user.activeTests) {
    analytics.trackExperimentStarted({
      userId: user.userId ?? 0,
      test: test.name,
      variant: test.value,
    });
  }
}
