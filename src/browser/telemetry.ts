// Telemetry of the checkout, one import for the app's start-up code: error reports and the
// chunk-load watchdog (error-reports.ts, with report-noise.ts and token-bucket.ts), usage
// analytics and the consent cookie (analytics.ts). See README.md.
export * from "./analytics.ts";
export * from "./error-reports.ts";
export * from "./report-noise.ts";
export * from "./token-bucket.ts";
