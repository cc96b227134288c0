// The API contract of spec section 7: one entry per call, with its method, path, query, body and
// 2xx answer schemas. The browser client types its calls against these and the server validates
// with the same schemas (STYLE.md point 10). Every non-2xx answer is ErrorBody.
import { z } from "zod";
import * as auth from "./auth.ts";
import { endpoint, Success } from "./common.ts";
import * as engagement from "./engagement.ts";
import { IDEMPOTENT_ERRORS, PAYMENT_PROVIDER_ERRORS } from "./errors.ts";
import * as invoices from "./invoices.ts";
import * as payment from "./payment.ts";
import * as products from "./products.ts";
import * as user from "./user.ts";

export * from "./auth.ts";
export * from "./common.ts";
export * from "./engagement.ts";
export * from "./errors.ts";
export * from "./invoices.ts";
export * from "./payment.ts";
export * from "./products.ts";
export * from "./user.ts";

const NoBody = z.object({}).optional();

// Codes that several calls share (the generic ones are added by `endpoint()`).
/** Calls that change an account hold its lock (src/server/services/account-lock.ts). */
const ACCOUNT_CHANGE_ERRORS = ["not_authenticated", "account_busy"] as const;
/** Refusals of the order summary (src/server/services/quotes.ts and the pricing module). */
const QUOTE_ERRORS = [
  "unknown_product",
  "invalid_seats",
  "invalid_add_on",
  "coupon_not_found",
  "coupon_not_active",
  "coupon_not_applicable",
  "seats_in_use",
  "already_subscribed",
  "education_email_required",
] as const;
/** Who may buy on the web at all (assertCanPurchase in src/server/routes/payments.ts). */
const PURCHASER_ERRORS = ["blocked_domain", "upgrades_disabled", "managed_account"] as const;
/** A plan or export purchase: priced like the summary, then checked against what was shown. */
const PURCHASE_ERRORS = [
  ...IDEMPOTENT_ERRORS,
  ...PURCHASER_ERRORS,
  ...QUOTE_ERRORS,
  "upgrade_without_product",
  "product_not_purchasable",
  "price_changed",
] as const;
const COUPON_ERRORS = ["coupon_not_found", "coupon_not_active"] as const;
const TELEMETRY_ERRORS = ["rate_limited", "telemetry_too_large"] as const;

export const api = {
  // Sessions
  signUp: endpoint({
    method: "POST",
    path: "/api/5/auth/signup",
    body: auth.SignUpRequest,
    response: auth.SignUpResponse,
    errors: ["rate_limited", "blocked_domain", "email_taken"],
  }),
  signIn: endpoint({
    method: "POST",
    path: "/api/5/auth/signin",
    body: auth.SignInRequest,
    response: auth.SignInResponse,
    errors: ["rate_limited", "invalid_credentials"],
  }),
  forgotPassword: endpoint({
    method: "POST",
    path: "/api/5/auth/forgot",
    body: auth.ForgotRequest,
    response: auth.ForgotResponse,
    errors: ["rate_limited"],
  }),
  changePassword: endpoint({
    method: "POST",
    path: "/api/3/users/changepassword",
    body: auth.ChangePasswordRequest,
    response: auth.ChangePasswordResponse,
    form: true,
    noCache: true,
    errors: ["rate_limited"],
  }),

  // User and session
  userInfo: endpoint({
    method: "GET",
    path: "/api/2/wevideouser/info/",
    response: user.UserInfoResponse,
    acceptsBelow500: user.NotSignedInBody,
    errors: ["not_authenticated"],
  }),
  sessionStatus: endpoint({
    method: "GET",
    path: "/api/5/session-status",
    query: user.SessionStatusQuery,
    response: user.SessionStatusResponse,
    errors: [],
  }),
  userContext: endpoint({
    method: "GET",
    path: "/api/2/wevideouser/context",
    query: user.UserContextQuery,
    response: user.UserContextResponse,
    errors: ["not_authenticated"],
  }),
  location: endpoint({
    method: "GET",
    path: "/api/2/wevideouser/location",
    response: user.LocationResponse,
    errors: ["not_authenticated"],
  }),
  setAttribute: endpoint({
    method: "POST",
    path: "/api/2/wevideouser/attribute",
    query: user.AttributeQuery,
    response: Success,
    errors: ["not_authenticated", "unknown_attribute"],
  }),
  enterpriseLicense: endpoint({
    method: "GET",
    path: "/api/2/enterprise/license",
    response: user.LicenseResponse,
    errors: ["not_authenticated", "not_enterprise"],
  }),
  instanceInfo: endpoint({
    method: "GET",
    path: "/movieAPI",
    query: user.InstanceInfoQuery,
    response: user.InstanceInfoResponse,
    errors: ["not_authenticated", "unknown_method"],
  }),
  activateUser: endpoint({
    method: "POST",
    path: "/api/4/user/activate",
    body: NoBody,
    response: Success,
    errors: ["not_authenticated", "email_not_verified"],
  }),
  editUser: endpoint({
    method: "PUT",
    path: "/api/4/user",
    body: user.EditUserRequest,
    response: user.EditUserResponse,
    errors: [
      "not_authenticated",
      "blocked_domain",
      "email_taken",
      "username_taken",
      "credentials_managed",
      "rate_limited",
      "current_password_required",
      "wrong_password",
    ],
  }),
  deleteUser: endpoint({
    method: "DELETE",
    path: "/api/4/user/",
    body: user.DeleteUserRequest,
    response: Success,
    errors: [...ACCOUNT_CHANGE_ERRORS, "not_on_trial"],
  }),
  verifyEmailCode: endpoint({
    method: "POST",
    path: "/api/4/user/2fa/verifyemailcode",
    body: user.VerifyEmailCodeRequest,
    response: Success,
    errors: ["not_authenticated", "rate_limited", "invalid_code"],
  }),
  generateEmailCode: endpoint({
    method: "POST",
    path: "/api/4/user/2fa/emailverification",
    body: NoBody,
    response: Success,
    errors: ["not_authenticated", "rate_limited"],
  }),
  validateTeacher: endpoint({
    method: "POST",
    path: "/api/4/products/teacherplan/validateuser",
    body: NoBody,
    response: user.TeacherValidationResponse,
    errors: ["not_authenticated"],
  }),
  disbandInstance: endpoint({
    method: "POST",
    path: "/api/4/instance/disband",
    body: user.DisbandRequest,
    response: user.DisbandResponse,
    errors: [...ACCOUNT_CHANGE_ERRORS, "not_instance_owner", "managed_account"],
  }),
  leaveInstance: endpoint({
    method: "POST",
    path: "/api/4/instance/:id/leave",
    body: NoBody,
    response: engagement.LeaveInstanceResponse,
    errors: [...ACCOUNT_CHANGE_ERRORS, "instance_not_found", "owner_cannot_leave"],
  }),

  // Products and prices
  products: endpoint({
    method: "GET",
    path: "/api/2/wevideouser/products",
    response: products.ProductsResponse,
    errors: ["not_authenticated"],
  }),
  catalogVersion: endpoint({
    method: "GET",
    path: "/api/5/catalog/version",
    response: products.CatalogVersionResponse,
    errors: [],
  }),
  paymentOptions: endpoint({
    method: "GET",
    path: "/api/3/payment/options",
    query: products.OptionsQuery,
    response: products.OptionsResponse,
    errors: [],
  }),
  orderSummary: endpoint({
    method: "POST",
    path: "/api/4/payment/summary",
    body: products.OrderSummaryRequest,
    response: products.OrderSummaryResponse,
    errors: [...QUOTE_ERRORS],
  }),

  // Payments
  paymentProviders: endpoint({
    method: "GET",
    path: "/api/5/payment/providers",
    response: payment.PaymentProvidersResponse,
    errors: [],
  }),
  sandboxToken: endpoint({
    method: "POST",
    path: "/api/3/payment/sandbox/tokens",
    body: payment.SandboxTokenRequest,
    response: payment.SandboxTokenResponse,
    errors: ["not_found", "invalid_card"],
  }),
  paymentToken: endpoint({
    method: "POST",
    path: "/api/3/payment/token",
    body: payment.TokenRequest,
    response: payment.TokenResponse,
    idempotent: true,
    errors: [...IDEMPOTENT_ERRORS, ...PAYMENT_PROVIDER_ERRORS],
  }),
  upgrade: endpoint({
    method: "POST",
    path: "/api/3/payment/upgrade",
    body: payment.UpgradeRequest,
    response: payment.UpgradeResponse,
    idempotent: true,
    errors: [
      ...PURCHASE_ERRORS,
      "account_busy",
      "no_payment_method",
      ...PAYMENT_PROVIDER_ERRORS,
      "paypal_change_not_supported",
    ],
  }),
  paypalSubscription: endpoint({
    method: "POST",
    path: "/api/3/payment/paypalsubscription",
    body: payment.PaypalSubscriptionRequest,
    response: payment.PaypalSubscriptionResponse,
    idempotent: true,
    errors: [
      ...PURCHASE_ERRORS,
      "paypal_unavailable",
      "invalid_return_url",
      "downgrade_needs_no_payment",
      "paypal_not_completed",
      "paypal_subscription_mismatch",
      "paypal_subscriptions_only",
      "paypal_provider_error",
      "paypal_approval_not_found",
      "paypal_change_not_supported",
      "account_busy",
    ],
  }),
  activateFreeTrial: endpoint({
    method: "POST",
    path: "/api/3/payment/activatefreetrial",
    body: payment.ActivateFreeTrialRequest,
    response: payment.ActivateFreeTrialResponse,
    idempotent: true,
    errors: [
      ...IDEMPOTENT_ERRORS,
      ...PURCHASER_ERRORS,
      "account_busy",
      "trial_not_available",
      "card_required_for_trial",
      "education_email_required",
      "email_not_verified",
    ],
  }),
  invoices: endpoint({
    method: "GET",
    path: "/api/3/payment/invoices/:page",
    response: payment.InvoiceList,
    errors: ["not_authenticated", "invalid_request"],
  }),
  paypalInvoices: endpoint({
    method: "GET",
    path: "/api/3/payment/paypalinvoices/:page",
    response: payment.InvoiceList,
    errors: ["not_authenticated", "invalid_request"],
  }),
  invoiceDocuments: endpoint({
    method: "GET",
    path: "/api/5/invoices",
    response: invoices.InvoiceDocumentList,
    errors: ["not_authenticated"],
  }),
  billingDetails: endpoint({
    method: "GET",
    path: "/api/5/billing/details",
    response: invoices.BillingDetailsResponse,
    errors: ["not_authenticated"],
  }),
  saveBillingDetails: endpoint({
    method: "POST",
    path: "/api/5/billing/details",
    body: invoices.BillingDetailsRequest,
    response: invoices.BillingDetailsResponse,
    errors: [...ACCOUNT_CHANGE_ERRORS, "invalid_tax_id"],
  }),
  address: endpoint({
    method: "POST",
    path: "/api/4/payment/address",
    body: payment.AddressRequest,
    response: payment.AddressResponse,
    errors: ["not_authenticated"],
  }),
  deleteEssentials: endpoint({
    method: "DELETE",
    path: "/api/3/payment/essentials",
    response: payment.DeleteEssentialsResponse,
    errors: [...ACCOUNT_CHANGE_ERRORS, "managed_account", "no_essentials"],
  }),
  cancelSubscription: endpoint({
    method: "DELETE",
    path: "/api/3/payment",
    response: payment.CancelSubscriptionResponse,
    errors: [
      ...ACCOUNT_CHANGE_ERRORS,
      "managed_account",
      "no_subscription",
      "paypal_provider_error",
    ],
  }),

  // Coupons and invitations
  verifyCoupon: endpoint({
    method: "POST",
    path: "/api/3/instances/verifycoupon/:code",
    body: NoBody,
    response: engagement.VerifyCouponResponse,
    errors: ["rate_limited", "not_authenticated", ...COUPON_ERRORS],
  }),
  applyCoupon: endpoint({
    method: "POST",
    path: "/api/3/instances/applycoupon/:code",
    body: NoBody,
    response: engagement.ApplyCouponResponse,
    errors: [
      "rate_limited",
      ...ACCOUNT_CHANGE_ERRORS,
      ...COUPON_ERRORS,
      "managed_account",
      "no_seats",
      "active_subscription",
      "coupon_not_applicable",
    ],
  }),
  /** Not in spec section 7 (issue 18, item 10): takes the applied coupon off the account. */
  removeCoupon: endpoint({
    method: "DELETE",
    path: "/api/5/coupon",
    response: engagement.RemoveCouponResponse,
    errors: ["not_authenticated"],
  }),
  inviteInfo: endpoint({
    method: "GET",
    path: "/api/5/invites/:code",
    response: engagement.InviteInfoResponse,
    errors: ["rate_limited", "invite_not_found"],
  }),
  acceptInvite: endpoint({
    method: "POST",
    path: "/api/5/invites/:code",
    query: engagement.AcceptInviteQuery,
    body: NoBody,
    response: engagement.AcceptInviteResponse,
    errors: ["rate_limited", ...ACCOUNT_CHANGE_ERRORS, "invite_not_found"],
  }),

  // Analytics and error reports
  instrumentation: endpoint({
    method: "POST",
    path: "/api/4/analytics/instrumentation",
    body: engagement.InstrumentationRequest,
    response: Success,
    errors: [...TELEMETRY_ERRORS],
  }),
  hubspotEvent: endpoint({
    method: "POST",
    path: "/api/4/analytics/hubspotevent/:id",
    query: engagement.HubspotQuery,
    body: engagement.HubspotRequest,
    response: Success,
    errors: [...TELEMETRY_ERRORS],
  }),
  trackJs: endpoint({
    method: "POST",
    path: "/api/2/event/trackjs",
    body: engagement.TrackJsRequest,
    response: Success,
    errors: [...TELEMETRY_ERRORS],
  }),
} as const;

export type Api = typeof api;
export type EndpointName = keyof Api;
