// The error catalogue of spec section 8 as pure data and functions, shared by the browser client
// and the server.
export * from "./api-errors.ts";
export * from "./call-errors.ts";
export * from "./card-errors.ts";
export * from "./messages.ts";
export * from "./pricing-codes.ts";
