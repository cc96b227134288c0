// Error reports of the checkout (spec 7 and 8) wired to the API client: error reports to
// /api/2/event/trackjs as 'checkout-prod' (rate limited and filtered by src/browser/telemetry.ts).
// Analytics (instrumentation while the person's privacy preference allows) load on demand:
// stores/analytics.ts, through loadAnalytics.

import { createErrorReporter, type ErrorReport } from "../browser/error-reports.ts";
import { endpoints } from "../contract/endpoints.ts";
import { api } from "./api.ts";

export const reporter = createErrorReporter({
  send: (report: ErrorReport) =>
    api().call(endpoints.trackJs, { body: report as unknown as Record<string, unknown> }),
});

/** The analytics module, loaded after start-up (not part of the app's shell). */
export function loadAnalytics(): Promise<typeof import("./analytics.ts")> {
  return import("./analytics.ts");
}

/** Reports the window's uncaught errors; returns the function that stops. */
export function installTelemetry(win: Window): () => void {
  return reporter.install(win);
}
