// The route table of the API (spec section 7), written by hand: for each call its method, path and
// flags, and nothing else. The browser imports it as it is (no zod, no messages: the checkout's
// JavaScript budget); the browser client types each call from the entry's schemas, which
// `index.ts` adds to these same entries for the server and the tests (`api`). The server
// registers a handler per entry and applies the flags itself (src/server/routing.ts): a flag is
// written once, here. Decision 0032. The account page's own calls are in account-endpoints.ts.
export type Method = "GET" | "POST" | "PUT" | "DELETE";

/**
 * The rate limits a route takes before its input is read, named for their key: `...PerIp` counts
 * the client's address, `...PerUser` the signed-in account (the route must be `auth`). Their
 * budgets are the server's (src/server/http/rate-limit.ts); limits keyed on what the body says
 * (an address, a password) stay in the handler.
 */
export type RouteLimit =
  | "signUpPerIp"
  | "signInPerIp"
  | "forgotPerIp"
  | "changePasswordPerIp"
  | "editUserPerIp"
  | "couponPerIp"
  | "invitePerIp"
  | "exposuresPerIp"
  | "emailCodeGeneratePerUser"
  | "emailCodeVerifyPerUser";

export type RouteFlags = {
  /** Signed in, or 401 `not_authenticated` before anything else; the handler gets the user. */
  readonly auth?: true;
  /** Taken after `auth`, before the input is read: 429 `rate_limited` with Retry-After. */
  readonly limit?: RouteLimit;
  /**
   * The call holds the account's lock (409 `account_busy`) around its work: `always`, or
   * `plan-change` when the body buys a plan (a one-off export does not). Needs `auth`.
   */
  readonly accountLock?: "always" | "plan-change";
  /** The call must carry an Idempotency-Key header; one key never makes two orders or charges. */
  readonly idempotent?: true;
  /** The body goes as a form (application/x-www-form-urlencoded), spec 7's variant, not JSON. */
  readonly form?: true;
  /** Sent with no-cache request headers (spec 7: the change-password call). */
  readonly noCache?: true;
  /**
   * A non-2xx answer below 500 that matches the entry's `acceptsBelow500` schema is an answer the
   * client reads (the user info call's signed-out 401 `{ success: false, ... }`).
   */
  readonly acceptsBelow500?: true;
};

/** An entry of the table. */
export type Route = { readonly method: Method; readonly path: string } & RouteFlags;

export const endpoints = {
  // Sessions
  signUp: { method: "POST", path: "/api/5/auth/signup", limit: "signUpPerIp" },
  signIn: { method: "POST", path: "/api/5/auth/signin", limit: "signInPerIp" },
  forgotPassword: { method: "POST", path: "/api/5/auth/forgot", limit: "forgotPerIp" },
  changePassword: {
    method: "POST",
    path: "/api/3/users/changepassword",
    limit: "changePasswordPerIp",
    form: true,
    noCache: true,
  },

  // User and session
  userInfo: { method: "GET", path: "/api/2/wevideouser/info/", acceptsBelow500: true },
  sessionStatus: { method: "GET", path: "/api/5/session-status" },
  userContext: { method: "GET", path: "/api/2/wevideouser/context", auth: true },
  location: { method: "GET", path: "/api/2/wevideouser/location", auth: true },
  setAttribute: { method: "POST", path: "/api/2/wevideouser/attribute", auth: true },
  enterpriseLicense: { method: "GET", path: "/api/2/enterprise/license", auth: true },
  instanceInfo: { method: "GET", path: "/movieAPI", auth: true },
  activateUser: { method: "POST", path: "/api/4/user/activate", auth: true },
  editUser: { method: "PUT", path: "/api/4/user", auth: true, limit: "editUserPerIp" },
  deleteUser: { method: "DELETE", path: "/api/4/user/", auth: true, accountLock: "always" },
  verifyEmailCode: {
    method: "POST",
    path: "/api/4/user/2fa/verifyemailcode",
    auth: true,
    limit: "emailCodeVerifyPerUser",
  },
  generateEmailCode: {
    method: "POST",
    path: "/api/4/user/2fa/emailverification",
    auth: true,
    limit: "emailCodeGeneratePerUser",
  },
  validateTeacher: { method: "POST", path: "/api/4/products/teacherplan/validateuser", auth: true },
  disbandInstance: {
    method: "POST",
    path: "/api/4/instance/disband",
    auth: true,
    accountLock: "always",
  },
  leaveInstance: {
    method: "POST",
    path: "/api/4/instance/:id/leave",
    auth: true,
    accountLock: "always",
  },

  // Products and prices
  products: { method: "GET", path: "/api/2/wevideouser/products", auth: true },
  catalogVersion: { method: "GET", path: "/api/5/catalog/version" },
  paymentOptions: { method: "GET", path: "/api/3/payment/options" },
  orderSummary: { method: "POST", path: "/api/4/payment/summary" },

  // Payments
  paymentProviders: { method: "GET", path: "/api/5/payment/providers" },
  sandboxToken: { method: "POST", path: "/api/3/payment/sandbox/tokens" },
  paymentToken: { method: "POST", path: "/api/3/payment/token", auth: true, idempotent: true },
  upgrade: {
    method: "POST",
    path: "/api/3/payment/upgrade",
    auth: true,
    idempotent: true,
    accountLock: "plan-change",
  },
  paypalSubscription: {
    method: "POST",
    path: "/api/3/payment/paypalsubscription",
    auth: true,
    idempotent: true,
  },
  activateFreeTrial: {
    method: "POST",
    path: "/api/3/payment/activatefreetrial",
    auth: true,
    idempotent: true,
    accountLock: "always",
  },
  invoices: { method: "GET", path: "/api/3/payment/invoices/:page", auth: true },
  paypalInvoices: { method: "GET", path: "/api/3/payment/paypalinvoices/:page", auth: true },
  invoiceDocuments: { method: "GET", path: "/api/5/invoices", auth: true },
  billingDetails: { method: "GET", path: "/api/5/billing/details", auth: true },
  saveBillingDetails: { method: "POST", path: "/api/5/billing/details", auth: true },
  address: { method: "POST", path: "/api/4/payment/address", auth: true },
  deleteEssentials: {
    method: "DELETE",
    path: "/api/3/payment/essentials",
    auth: true,
    accountLock: "always",
  },
  cancelSubscription: {
    method: "DELETE",
    path: "/api/3/payment",
    auth: true,
    accountLock: "always",
  },

  // Coupons and invitations
  verifyCoupon: {
    method: "POST",
    path: "/api/3/instances/verifycoupon/:code",
    auth: true,
    limit: "couponPerIp",
  },
  applyCoupon: {
    method: "POST",
    path: "/api/3/instances/applycoupon/:code",
    auth: true,
    limit: "couponPerIp",
  },
  /** Not in spec section 7 (issue 18, item 10): takes the applied coupon off the account. */
  removeCoupon: { method: "DELETE", path: "/api/5/coupon", auth: true },
  inviteInfo: { method: "GET", path: "/api/5/invites/:code", limit: "invitePerIp" },
  acceptInvite: { method: "POST", path: "/api/5/invites/:code", auth: true, limit: "invitePerIp" },

  // Analytics and error reports (their limits count the client and the account: in the handler)
  instrumentation: { method: "POST", path: "/api/4/analytics/instrumentation" },
  hubspotEvent: { method: "POST", path: "/api/4/analytics/hubspotevent/:id" },
  trackJs: { method: "POST", path: "/api/2/event/trackjs" },
} as const satisfies Record<string, Route>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

// The closed set of error codes, without the catalogue's messages (src/domain/errors), for the
// browser. `errors.ts` proves at compile time that it is exactly the catalogue's set.
export const ERROR_CODE_LIST = [
  "invalid_json",
  "invalid_request",
  "body_too_large",
  "body_too_deep",
  "unsupported_media_type",
  "not_found",
  "method_not_allowed",
  "unknown_method",
  "cross_site",
  "rate_limited",
  "telemetry_too_large",
  "not_authenticated",
  "invalid_credentials",
  "email_taken",
  "blocked_domain",
  "username_taken",
  "credentials_managed",
  "current_password_required",
  "wrong_password",
  "invalid_code",
  "email_not_verified",
  "unknown_attribute",
  "unknown_product",
  "product_not_purchasable",
  "upgrade_without_product",
  "invalid_seats",
  "invalid_add_on",
  "price_changed",
  "already_subscribed",
  "seats_in_use",
  "downgrade_needs_no_payment",
  "no_payment_method",
  "upgrades_disabled",
  "managed_account",
  "education_email_required",
  "trial_not_available",
  "card_required_for_trial",
  "no_subscription",
  "no_essentials",
  "not_on_trial",
  "invalid_return_url",
  "paypal_unavailable",
  "paypal_approval_not_found",
  "idempotency_key_required",
  "idempotency_key_reused",
  "account_busy",
  "idempotency_key_in_progress",
  "coupon_not_found",
  "coupon_not_active",
  "coupon_not_applicable",
  "no_seats",
  "active_subscription",
  "invite_not_found",
  "not_enterprise",
  "instance_not_found",
  "not_instance_owner",
  "owner_cannot_leave",
  "member_not_found",
  "card_error",
  "invalid_card",
  "payment_provider_unavailable",
  "payment_pending",
  "authentication_required",
  "authentication_failed",
  "paypal_not_completed",
  "paypal_subscription_mismatch",
  "paypal_subscriptions_only",
  "paypal_provider_error",
  "paypal_change_not_supported",
  "billing_not_stopped",
  "invalid_tax_id",
  "webhook_signature_invalid",
  "webhook_event_invalid",
  "webhook_not_configured",
  "webhook_not_verified",
  "webhook_not_applied",
  "internal_error",
  "expired_card",
  "incorrect_cvc",
  "card_declined",
  "processing_error",
  "incorrect_zip",
  "insufficient_funds",
] as const;

/**
 * A code of the list: the same type as `ErrorCode` (errors.ts proves it), named here so that this
 * table imports nothing of errors.ts, which imports the list (no import circle, issue 19).
 */
export type KnownErrorCode = (typeof ERROR_CODE_LIST)[number];

const ERROR_CODE_SET: ReadonlySet<string> = new Set(ERROR_CODE_LIST);

export function isKnownErrorCode(code: unknown): code is KnownErrorCode {
  return typeof code === "string" && ERROR_CODE_SET.has(code);
}
