// The user, the session and the account's context (spec sections 3.1, 3.2 and 7).
import { z } from "zod";
import { Cents, ProductCode, Success, SuccessFlag, Timestamp, typedText } from "./common.ts";

export const PrivacyPreference = z.object({
  key: z.string(),
  value: z.boolean(),
  defaultValue: z.boolean(),
});

/** User properties the app may read; the settable ones are listed in SETTABLE_ATTRIBUTES. */
const UserProperties = z.object({
  selectedP: z.string().optional(),
  selectedProduct: z.string().optional(),
  selectedTier: z.string().optional(),
  purpose: z.string().optional(),
  stripeId: z.string().optional(),
  paypalSubscriptionId: z.string().optional(),
  visitedNewHub: z.string().optional(),
  useNewPlans: z.string().optional(),
  desiredInstanceName: z.string().optional(),
  targetedPricingCampaign: z.string().optional(),
  defaultEditingMode: z.string().optional(),
  shouldSeeSegmentation: z.string().optional(),
  ccRequiredForTrial: z.string().optional(),
  useHtmlEditor: z.string().optional(),
  /** What the segmentation steps learnt (spec 3.1 segmentationInfo), as JSON. */
  segmentationInfo: z.string().optional(),
});

/** Keys that POST /api/2/wevideouser/attribute accepts; the rest are set by the server only. */
export const SETTABLE_ATTRIBUTES = [
  "selectedP",
  "selectedProduct",
  "selectedTier",
  "purpose",
  "visitedNewHub",
  "useNewPlans",
  "desiredInstanceName",
  "defaultEditingMode",
  "shouldSeeSegmentation",
  "useHtmlEditor",
  "segmentationInfo",
] as const;

/** GET /api/2/wevideouser/info/ (spec 3.2). Anonymous visitors get 401 with success false. */
export const UserInfoResponse = z.object({
  success: z.literal(true),
  username: z.string(),
  userId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  activationRequired: z.boolean(),
  enterpriseMember: z.boolean(),
  enterpriseAccountOwner: z.boolean(),
  enterpriseMemberInstance: z.string().nullable(),
  enterpriseRole: z.string().nullable(),
  memberState: z.string().nullable(),
  ssoType: z.string().nullable(),
  canEditSSOCredentials: z.boolean(),
  canEditCredentials: z.boolean(),
  instanceId: z.number().int().nullable(),
  instanceProduct: z.string().nullable(),
  usedSeats: z.number().int(),
  domainStatus: z.string().nullable(),
  privacyPreferences: z.array(PrivacyPreference),
  properties: UserProperties,
  sessionProperties: z.object({
    signupLocation: z.string().optional(),
    page_url: z.string().optional(),
  }),
  priceTestingGroup: z.string().nullable(),
  priceTestingGroupValue: z.string().nullable(),
  priceCampaignKey: z.string().nullable(),
  deploymentEnv: z.string(),
  useHtmlEditor: z.boolean(),
  creationDate: Timestamp,
  locale: z.string(),
  eu: z.boolean(),
  /**
   * The school district (catalog/accounts.yaml) whose addresses this user's e-mail is on: none or
   * one. The checkout sends the user to its student or staff page while the product is free
   * (spec 2.5); the list of districts itself stays on the server.
   */
  schoolDistricts: z.array(
    z.object({
      emailDomains: z.array(z.string()),
      studentUrl: z.string(),
      staffUrl: z.string(),
      studentPattern: z.string(),
    }),
  ),
});
export type UserInfo = z.output<typeof UserInfoResponse>;
export const NotSignedInBody = z.object({
  success: z.literal(false),
  message: z.string(),
  error_code: z.literal("not_authenticated"),
});

/** The context call's cache-busting query (spec 7: `?v=..&_=timestamp`); the server ignores it. */
export const UserContextQuery = z.object({
  v: z.string().max(64).optional(),
  _: z.string().max(32).optional(),
});

/** GET /api/2/wevideouser/context: the account state the app derives its flags from (spec 3.1). */
export const UserContextResponse = z.object({
  isAuth: z.literal(true),
  userId: z.number().int(),
  productCode: z.string(),
  orderState: z.string(),
  prevOrderState: z.string().nullable(),
  orderEndDate: Timestamp.nullable(),
  lastOrderId: z.string().nullable(),
  termDurationMonths: z.number().int().nullable(),
  isTrial: z.boolean(),
  isMemberTrial: z.boolean(),
  isExpiredTrial: z.boolean(),
  isExpiredAccount: z.boolean(),
  isCancelled: z.boolean(),
  remainingTrialDays: z.number().int().nullable(),
  professionalTrial: z.boolean(),
  userHasTrialProduct: z.boolean(),
  userHasPaymentMethodSet: z.boolean(),
  paymentMethod: z.enum(["paypal", "cc"]).nullable(),
  isPurchaseOrder: z.boolean(),
  isManagedAccount: z.boolean(),
  isUserEnterpriseMember: z.boolean(),
  isEnterpriseAdmin: z.boolean(),
  hasInstanceProduct: z.boolean(),
  disableAccountUpgrades: z.boolean(),
  upgradesDisabled: z.boolean(),
  androidSubscription: z.boolean(),
  itunesSubscription: z.boolean(),
  shouldViewUpgrade: z.boolean(),
  previousTrialOwner: z.boolean(),
  ccRequiredForTrial: z.boolean(),
  vertical: z.string(),
  tier: z.string(),
  accountType: z.string(),
  targetedPricingCampaign: z.string().nullable(),
  showCampaignBanner: z.boolean(),
  activeTests: z.array(z.object({ name: z.string(), data: z.object({ value: z.string() }) })),
  seatPrice: Cents,
  currentSeats: z.number().int(),
  usedSeats: z.number().int(),
  maxSeats: z.number().int(),
});

/** GET /api/5/session-status: the page's query string plus initialReferrer are sent. */
export const SessionStatusQuery = z.record(z.string(), z.string());
export const SessionStatusResponse = z.object({
  isAuth: z.boolean(),
  userId: z.number().int().nullable(),
  eu: z.boolean(),
  countryCode: z.string(),
  stateCode: z.string().nullable(),
  activationRequired: z.boolean(),
  deploymentEnv: z.string(),
  /**
   * Origins of the hub pages allowed to embed the checkout (HUB_ORIGINS; in a local run also this
   * server's own loopback origins, for the /dev/hub demo). The app posts its events only to the
   * one of them that frames it, and ignores messages from any other origin.
   */
  hubOrigins: z.array(z.string()),
});

export const LocationResponse = z.object({
  countryCode: z.string(),
  stateCode: z.string().nullable(),
  stateName: z.string().nullable(),
});

/** GET /api/2/enterprise/license: for enterprise owners and members. */
export const LicenseResponse = z.object({
  hasLicense: z.boolean(),
  licensePricingStructure: z.string().nullable(),
  instanceId: z.number().int(),
  instanceName: z.string(),
  productCode: z.string(),
  seatPrice: Cents,
  currentSeats: z.number().int(),
  usedSeats: z.number().int(),
  maxSeats: z.number().int(),
  isEnterpriseAdmin: z.boolean(),
});

export const InstanceInfoQuery = z.object({
  method: z.string(),
  instanceName: z.string().max(100).optional(),
});
export const InstanceInfoResponse = z.object({
  success: z.literal(true),
  instanceName: z.string(),
  exists: z.boolean(),
  /** The name can be taken for a new team workspace. */
  available: z.boolean(),
});

export const AttributeQuery = z.object({
  key: z.string().min(1).max(64),
  value: typedText({ max: 1000 }),
});

export const EditUserRequest = z.object({
  email: z.email().max(254),
  firstName: typedText({ min: 1, max: 100 }),
  lastName: typedText({ max: 100 }),
  username: typedText({ min: 1, max: 100 }),
  /** Required when the e-mail address changes (issue 18, item 12); never stored. */
  currentPassword: z.string().max(200).optional(),
});
/** Success only when success is true (or the string "true"). */
export const EditUserResponse = z.object({
  success: z.union([z.boolean(), z.literal("true")]),
  /**
   * The new address while it waits for its code: the account keeps its old address until the
   * code sent to the new one is entered (POST /api/4/user/2fa/verifyemailcode).
   */
  pendingEmail: z.string().nullable().optional(),
});

export const VerifyEmailCodeRequest = z.object({ code: z.string().trim().min(1).max(20) });

export const DeleteUserRequest = z.object({ forgetMe: z.boolean() });

export const DisbandRequest = z.object({
  reason: typedText({ max: 2000, multiline: true }),
  forgetMe: z.boolean(),
  deleteOwner: z.boolean(),
  forgetOwner: z.boolean().optional(),
  deleteMembers: z.boolean(),
});
export const DisbandResponse = z.object({
  success: z.union([z.boolean(), z.literal("true")]),
  productCode: ProductCode,
});

export const TeacherValidationResponse = SuccessFlag;
export { Success };
