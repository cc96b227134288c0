// The API contract of spec section 7: one entry per call, with its method, path, query, body and
// 2xx answer schemas. The browser client types its calls against these and the server validates
// with the same schemas (STYLE.md point 10). Every non-2xx answer is ErrorBody.
import { z } from "zod";
import * as auth from "./auth.ts";
import { endpoint, Success } from "./common.ts";
import * as engagement from "./engagement.ts";
import * as payment from "./payment.ts";
import * as products from "./products.ts";
import * as user from "./user.ts";

export * from "./auth.ts";
export * from "./common.ts";
export * from "./engagement.ts";
export * from "./payment.ts";
export * from "./products.ts";
export * from "./user.ts";

const NoBody = z.object({}).optional();

export const api = {
  // Sessions
  signUp: endpoint({
    method: "POST",
    path: "/api/5/auth/signup",
    body: auth.SignUpRequest,
    response: auth.SignUpResponse,
  }),
  signIn: endpoint({
    method: "POST",
    path: "/api/5/auth/signin",
    body: auth.SignInRequest,
    response: auth.SignInResponse,
  }),
  forgotPassword: endpoint({
    method: "POST",
    path: "/api/5/auth/forgot",
    body: auth.ForgotRequest,
    response: auth.ForgotResponse,
  }),
  changePassword: endpoint({
    method: "POST",
    path: "/api/3/users/changepassword",
    body: auth.ChangePasswordRequest,
    response: auth.ChangePasswordResponse,
  }),

  // User and session
  userInfo: endpoint({
    method: "GET",
    path: "/api/2/wevideouser/info/",
    response: user.UserInfoResponse,
    acceptsBelow500: true,
  }),
  sessionStatus: endpoint({
    method: "GET",
    path: "/api/5/session-status",
    query: user.SessionStatusQuery,
    response: user.SessionStatusResponse,
  }),
  userContext: endpoint({
    method: "GET",
    path: "/api/2/wevideouser/context",
    response: user.UserContextResponse,
  }),
  location: endpoint({
    method: "GET",
    path: "/api/2/wevideouser/location",
    response: user.LocationResponse,
  }),
  setAttribute: endpoint({
    method: "POST",
    path: "/api/2/wevideouser/attribute",
    query: user.AttributeQuery,
    response: Success,
  }),
  enterpriseLicense: endpoint({
    method: "GET",
    path: "/api/2/enterprise/license",
    response: user.LicenseResponse,
  }),
  instanceInfo: endpoint({
    method: "GET",
    path: "/movieAPI",
    query: user.InstanceInfoQuery,
    response: user.InstanceInfoResponse,
  }),
  activateUser: endpoint({
    method: "POST",
    path: "/api/4/user/activate",
    body: NoBody,
    response: Success,
  }),
  editUser: endpoint({
    method: "PUT",
    path: "/api/4/user",
    body: user.EditUserRequest,
    response: user.EditUserResponse,
  }),
  deleteUser: endpoint({
    method: "DELETE",
    path: "/api/4/user/",
    body: user.DeleteUserRequest,
    response: Success,
  }),
  verifyEmailCode: endpoint({
    method: "POST",
    path: "/api/4/user/2fa/verifyemailcode",
    body: user.VerifyEmailCodeRequest,
    response: Success,
  }),
  generateEmailCode: endpoint({
    method: "POST",
    path: "/api/4/user/2fa/emailverification",
    body: NoBody,
    response: Success,
  }),
  validateTeacher: endpoint({
    method: "POST",
    path: "/api/4/products/teacherplan/validateuser",
    body: NoBody,
    response: user.TeacherValidationResponse,
  }),
  disbandInstance: endpoint({
    method: "POST",
    path: "/api/4/instance/disband",
    body: user.DisbandRequest,
    response: user.DisbandResponse,
  }),
  leaveInstance: endpoint({
    method: "POST",
    path: "/api/4/instance/:id/leave",
    body: NoBody,
    response: engagement.LeaveInstanceResponse,
  }),

  // Products and prices
  products: endpoint({
    method: "GET",
    path: "/api/2/wevideouser/products",
    response: products.ProductsResponse,
  }),
  paymentOptions: endpoint({
    method: "GET",
    path: "/api/3/payment/options",
    query: products.OptionsQuery,
    response: products.OptionsResponse,
  }),
  orderSummary: endpoint({
    method: "POST",
    path: "/api/4/payment/summary",
    body: products.OrderSummaryRequest,
    response: products.OrderSummaryResponse,
  }),

  // Payments
  sandboxToken: endpoint({
    method: "POST",
    path: "/api/3/payment/sandbox/tokens",
    body: payment.SandboxTokenRequest,
    response: payment.SandboxTokenResponse,
  }),
  paymentToken: endpoint({
    method: "POST",
    path: "/api/3/payment/token",
    body: payment.TokenRequest,
    response: payment.TokenResponse,
    idempotent: true,
  }),
  upgrade: endpoint({
    method: "POST",
    path: "/api/3/payment/upgrade",
    body: payment.UpgradeRequest,
    response: payment.UpgradeResponse,
    idempotent: true,
  }),
  paypalSubscription: endpoint({
    method: "POST",
    path: "/api/3/payment/paypalsubscription",
    body: payment.PaypalSubscriptionRequest,
    response: payment.PaypalSubscriptionResponse,
    idempotent: true,
  }),
  activateFreeTrial: endpoint({
    method: "POST",
    path: "/api/3/payment/activatefreetrial",
    body: payment.ActivateFreeTrialRequest,
    response: payment.ActivateFreeTrialResponse,
    idempotent: true,
  }),
  invoices: endpoint({
    method: "GET",
    path: "/api/3/payment/invoices/:page",
    response: payment.InvoiceList,
  }),
  paypalInvoices: endpoint({
    method: "GET",
    path: "/api/3/payment/paypalinvoices/:page",
    response: payment.InvoiceList,
  }),
  address: endpoint({
    method: "POST",
    path: "/api/4/payment/address",
    body: payment.AddressRequest,
    response: payment.AddressResponse,
  }),
  deleteEssentials: endpoint({
    method: "DELETE",
    path: "/api/3/payment/essentials",
    response: payment.DeleteEssentialsResponse,
  }),
  cancelSubscription: endpoint({
    method: "DELETE",
    path: "/api/3/payment",
    response: payment.CancelSubscriptionResponse,
  }),

  // Coupons and invitations
  verifyCoupon: endpoint({
    method: "POST",
    path: "/api/3/instances/verifycoupon/:code",
    body: NoBody,
    response: engagement.VerifyCouponResponse,
  }),
  applyCoupon: endpoint({
    method: "POST",
    path: "/api/3/instances/applycoupon/:code",
    body: NoBody,
    response: engagement.ApplyCouponResponse,
  }),
  inviteInfo: endpoint({
    method: "GET",
    path: "/api/5/invites/:code",
    response: engagement.InviteInfoResponse,
  }),
  acceptInvite: endpoint({
    method: "POST",
    path: "/api/5/invites/:code",
    query: engagement.AcceptInviteQuery,
    body: NoBody,
    response: engagement.AcceptInviteResponse,
  }),

  // Analytics and error reports
  instrumentation: endpoint({
    method: "POST",
    path: "/api/4/analytics/instrumentation",
    body: engagement.InstrumentationRequest,
    response: Success,
  }),
  hubspotEvent: endpoint({
    method: "POST",
    path: "/api/4/analytics/hubspotevent/:id",
    query: engagement.HubspotQuery,
    body: engagement.HubspotRequest,
    response: Success,
  }),
  trackJs: endpoint({
    method: "POST",
    path: "/api/2/event/trackjs",
    body: engagement.TrackJsRequest,
    response: Success,
  }),
} as const;

export type Api = typeof api;
export type EndpointName = keyof Api;
