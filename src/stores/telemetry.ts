// Error reports and analytics of the checkout (spec 7 and 8) wired to the API client: error
// reports to /api/2/event/trackjs as 'checkout-prod' (rate limited and filtered by
// src/browser/telemetry.ts), instrumentation only while the person's privacy preference allows.
import { routes as endpoints } from "../api/contract/routes.ts";
import { createAnalytics, createErrorReporter, type ErrorReport } from "../browser/telemetry.ts";
import { api } from "./api.ts";
import { $user } from "./user.ts";

export const reporter = createErrorReporter({
  send: (report: ErrorReport) =>
    api().call(endpoints.trackJs, { body: report as unknown as Record<string, unknown> }),
});

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
  storage: sessionStorageOrNull(),
});

/** Reports the window's uncaught errors; returns the function that stops. */
export function installTelemetry(win: Window): () => void {
  return reporter.install(win);
}
