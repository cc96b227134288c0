// Pure account rules of spec sections 2.5, 4 and 5, shared by the checkout and the server.
export * from "./email-rules.ts";
export * from "./features.ts";
export * from "./invoice.ts";
export * from "./order-state.ts";
export * from "./password.ts";
export * from "./payment-method.ts";
export * from "./plan-change.ts";
export * from "./redirects.ts";
export * from "./teams.ts";
export * from "./tier.ts";
