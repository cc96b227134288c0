// Pure rules of the checkout app under /cart: routes, query parameters, navigation decisions,
// browser support and viewport flags. See README.md.
export * from "./browser-support.ts";
export * from "./navigation.ts";
export * from "./query.ts";
export * from "./screens.ts";
export * from "./viewport.ts";
