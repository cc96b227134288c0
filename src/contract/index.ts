// The API contract of spec section 7: the route table (endpoints.ts: method, path, flags) with,
// for each entry, its schemas (query, body, path parameters, 2xx answer) and the error codes it
// answers. The server's router parses and validates every request with these schemas before the
// handler runs (src/server/routing.ts), the browser client types its calls from them, and the
// tests validate answers with them (STYLE.md point 10). Every non-2xx answer is ErrorBody.
import { z } from "zod";
import { accountEndpoints } from "./account-endpoints.ts";
import * as auth from "./auth.ts";
import { Success, withSchemas } from "./common.ts";
import { endpoints } from "./endpoints.ts";
import * as engagement from "./engagement.ts";
import { IDEMPOTENT_ERRORS, PAYMENT_PROVIDER_ERRORS } from "./errors.ts";
import * as invoices from "./invoices.ts";
import { pageEndpoints } from "./page-endpoints.ts";
import * as payment from "./payment.ts";
import * as products from "./products.ts";
import * as user from "./user.ts";

export * from "./account-endpoints.ts";
export * from "./auth.ts";
export * from "./common.ts";
export * from "./endpoints.ts";
export * from "./engagement.ts";
export * from "./errors.ts";
export * from "./invoices.ts";
export * from "./payment.ts";
export * from "./products.ts";
export * from "./user.ts";

const NoBody = z.object({}).optional();

// Codes that several calls share (the generic ones are added by `withSchemas()`).
/** Calls that change an account hold its lock (src/server/services/account-lock.ts). */
const ACCOUNT_CHANGE_ERRORS = ["not_authenticated", "account_busy"] as const;
/** Refusals of the order summary (src/server/services/account-pricing.ts and the pricing module). */
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
/** Who may buy on the web at all (purchaseRefusal in src/server/services/purchase.ts). */
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

/** The route table: endpoints.ts, with the account page's own calls (decision 0085). */
const routeTable = { ...endpoints, ...accountEndpoints, ...pageEndpoints };

export const api = withSchemas(routeTable, {
  // Sessions
  signUp: {
    body: auth.SignUpRequest,
    response: auth.SignUpResponse,
    errors: ["rate_limited", "blocked_domain", "email_taken"],
  },
  signIn: {
    body: auth.SignInRequest,
    response: auth.SignInResponse,
    errors: ["rate_limited", "invalid_credentials"],
  },
  forgotPassword: {
    body: auth.ForgotRequest,
    response: auth.ForgotResponse,
    errors: ["rate_limited"],
  },
  changePassword: {
    body: auth.ChangePasswordRequest,
    response: auth.ChangePasswordResponse,
    errors: ["rate_limited"],
  },

  // User and session
  userInfo: {
    response: user.UserInfoResponse,
    answerBelow500: user.NotSignedInBody,
    errors: ["not_authenticated"],
  },
  sessionStatus: {
    query: user.SessionStatusQuery,
    response: user.SessionStatusResponse,
    errors: [],
  },
  userContext: {
    query: user.UserContextQuery,
    response: user.UserContextResponse,
    errors: ["not_authenticated"],
  },
  location: {
    response: user.LocationResponse,
    errors: ["not_authenticated"],
  },
  setAttribute: {
    query: user.AttributeQuery,
    response: Success,
    errors: ["not_authenticated", "unknown_attribute"],
  },
  enterpriseLicense: {
    response: user.LicenseResponse,
    errors: ["not_authenticated", "not_enterprise"],
  },
  instanceInfo: {
    query: user.InstanceInfoQuery,
    response: user.InstanceInfoResponse,
    errors: ["not_authenticated", "unknown_method"],
  },
  activateUser: {
    body: NoBody,
    response: Success,
    errors: ["not_authenticated", "email_not_verified"],
  },
  editUser: {
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
  },
  deleteUser: {
    body: user.DeleteUserRequest,
    response: Success,
    errors: [...ACCOUNT_CHANGE_ERRORS, "not_on_trial", "billing_not_stopped"],
  },
  verifyEmailCode: {
    body: user.VerifyEmailCodeRequest,
    response: Success,
    errors: ["not_authenticated", "rate_limited", "invalid_code"],
  },
  generateEmailCode: {
    body: NoBody,
    response: Success,
    errors: ["not_authenticated", "rate_limited"],
  },
  validateTeacher: {
    body: NoBody,
    response: user.TeacherValidationResponse,
    errors: ["not_authenticated"],
  },
  disbandInstance: {
    body: user.DisbandRequest,
    response: user.DisbandResponse,
    errors: [
      ...ACCOUNT_CHANGE_ERRORS,
      "not_instance_owner",
      "managed_account",
      "billing_not_stopped",
    ],
  },
  teamInvite: {
    body: NoBody,
    response: engagement.TeamInviteResponse,
    errors: ["not_authenticated", "not_instance_owner"],
  },
  teamMembers: {
    response: engagement.TeamMembersResponse,
    errors: ["not_authenticated", "not_instance_owner"],
  },
  removeTeamMember: {
    params: engagement.TeamMemberParams,
    body: NoBody,
    response: engagement.RemoveTeamMemberResponse,
    errors: [
      ...ACCOUNT_CHANGE_ERRORS,
      "not_instance_owner",
      "owner_cannot_leave",
      "member_not_found",
    ],
  },
  leaveInstance: {
    body: NoBody,
    response: engagement.LeaveInstanceResponse,
    errors: [...ACCOUNT_CHANGE_ERRORS, "instance_not_found", "owner_cannot_leave"],
  },

  // Products and prices
  products: {
    response: products.ProductsResponse,
    errors: ["not_authenticated"],
  },
  catalogVersion: {
    response: products.CatalogVersionResponse,
    errors: [],
  },
  paymentOptions: {
    query: products.OptionsQuery,
    response: products.OptionsResponse,
    errors: [],
  },
  orderSummary: {
    body: products.OrderSummaryRequest,
    response: products.OrderSummaryResponse,
    errors: [...QUOTE_ERRORS],
  },

  // Payments
  paymentProviders: {
    response: payment.PaymentProvidersResponse,
    errors: [],
  },
  paymentMethod: {
    response: payment.PaymentMethodResponse,
    errors: ["not_authenticated"],
  },
  sandboxToken: {
    body: payment.SandboxTokenRequest,
    response: payment.SandboxTokenResponse,
    errors: ["not_found", "invalid_card"],
  },
  paymentToken: {
    body: payment.TokenRequest,
    response: payment.TokenResponse,
    errors: [...IDEMPOTENT_ERRORS, ...PAYMENT_PROVIDER_ERRORS],
  },
  upgrade: {
    body: payment.UpgradeRequest,
    response: payment.UpgradeResponse,
    errors: [
      ...PURCHASE_ERRORS,
      "account_busy",
      "no_payment_method",
      ...PAYMENT_PROVIDER_ERRORS,
      "paypal_change_not_supported",
    ],
  },
  paypalSubscription: {
    body: payment.PaypalSubscriptionRequest,
    response: payment.PaypalSubscriptionResponse,
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
  },
  activateFreeTrial: {
    body: payment.ActivateFreeTrialRequest,
    response: payment.ActivateFreeTrialResponse,
    errors: [
      ...IDEMPOTENT_ERRORS,
      ...PURCHASER_ERRORS,
      "account_busy",
      "trial_not_available",
      "card_required_for_trial",
      "education_email_required",
      "email_not_verified",
    ],
  },
  invoices: {
    params: payment.InvoicePage,
    response: payment.InvoiceList,
    errors: ["not_authenticated"],
  },
  paypalInvoices: {
    params: payment.InvoicePage,
    response: payment.InvoiceList,
    errors: ["not_authenticated"],
  },
  invoiceDocuments: {
    query: invoices.InvoiceDocumentQuery,
    response: invoices.InvoiceDocumentList,
    errors: ["not_authenticated"],
  },
  billingDetails: {
    response: invoices.BillingDetailsResponse,
    errors: ["not_authenticated"],
  },
  saveBillingDetails: {
    body: invoices.BillingDetailsRequest,
    response: invoices.BillingDetailsResponse,
    errors: [...ACCOUNT_CHANGE_ERRORS, "invalid_tax_id", "rate_limited"],
  },
  address: {
    body: payment.AddressRequest,
    response: payment.AddressResponse,
    errors: ["not_authenticated"],
  },
  deleteEssentials: {
    response: payment.DeleteEssentialsResponse,
    errors: [...ACCOUNT_CHANGE_ERRORS, "managed_account", "no_essentials"],
  },
  cancelSubscription: {
    response: payment.CancelSubscriptionResponse,
    errors: [
      ...ACCOUNT_CHANGE_ERRORS,
      "managed_account",
      "no_subscription",
      "paypal_provider_error",
    ],
  },

  // Coupons and invitations
  verifyCoupon: {
    body: NoBody,
    response: engagement.VerifyCouponResponse,
    errors: ["rate_limited", "not_authenticated", ...COUPON_ERRORS],
  },
  applyCoupon: {
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
  },
  /** Not in spec section 7 (issue 18, item 10): takes the applied coupon off the account. */
  removeCoupon: {
    response: engagement.RemoveCouponResponse,
    errors: ["not_authenticated"],
  },
  inviteInfo: {
    response: engagement.InviteInfoResponse,
    errors: ["rate_limited", "invite_not_found"],
  },
  acceptInvite: {
    query: engagement.AcceptInviteQuery,
    body: NoBody,
    response: engagement.AcceptInviteResponse,
    errors: ["rate_limited", ...ACCOUNT_CHANGE_ERRORS, "invite_not_found"],
  },

  // Analytics and error reports
  instrumentation: {
    body: engagement.InstrumentationRequest,
    response: Success,
    errors: [...TELEMETRY_ERRORS],
  },
  hubspotEvent: {
    query: engagement.HubspotQuery,
    body: engagement.HubspotRequest,
    response: Success,
    errors: [...TELEMETRY_ERRORS],
  },
  trackJs: {
    body: engagement.TrackJsRequest,
    response: Success,
    errors: [...TELEMETRY_ERRORS],
  },
  experimentExposures: {
    body: engagement.ExperimentExposuresRequest,
    response: engagement.ExperimentExposuresResponse,
    errors: [],
  },
});

export type Api = typeof api;
