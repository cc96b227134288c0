// Renewals: what a renewal charges, when a subscription renews or ends, the retry schedule.
export * from "./charge.ts";
export * from "./dunning.ts";
export * from "./next-renewal.ts";
export * from "./paid-period.ts";
export * from "./price-basis.ts";
export * from "./renewal-words.ts";
export * from "./schedule.ts";
