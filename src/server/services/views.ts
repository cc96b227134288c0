// The answers of the user info, context and products calls (spec sections 3.1, 3.2 and 3.3),
// built from an Account. Prices come from the pricing module; nothing is computed here.
import type { z } from "zod";
import type { ProductsResponse } from "../../contract/products.ts";
import type { UserContextResponse, UserInfoResponse } from "../../contract/user.ts";
import { districtRedirect, type SchoolDistrictRule } from "../../domain/account/email-rules.ts";
import { prefersHtmlEditor } from "../../domain/account/features.ts";
import { FREE_PRODUCT, isTrialCode, trialProductForTier } from "../../domain/account/tier.ts";
import { trialOffered } from "../../domain/account/trials.ts";
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import { priceSetForPlan } from "../../domain/experiments/price-choice.ts";
import {
  activeCampaigns,
  basePriceWithoutAddOns,
  couponMatches,
  planPrice,
} from "../../domain/pricing/index.ts";
import { type NextRenewal, nextRenewal } from "../../domain/renewals/next-renewal.ts";
import type { Account } from "./account.ts";
import { taxLocationFor } from "./invoices.ts";
import { isGdprCountry } from "./location.ts";

/** Trial length when a plan gives none (spec section 9: the checkout trial is 14 days). */
export const DEFAULT_TRIAL_DAYS = 14;
/** No account of this deployment predates the HTML editor, so none keeps the old one by default. */
const LEGACY_EDITOR_USER_IDS_BELOW = 0;

/** The price set that prices this plan for the account (its experiment group, its price group). */
export function priceSetOf(catalog: Catalog, account: Account, productCode: string): string | null {
  return priceSetForPlan(catalog, account.priceChoice, productCode);
}

function enterpriseRole(account: Account): string | null {
  if (account.user.enterpriseRole) return account.user.enterpriseRole;
  if (account.isOwner) return "admin";
  return account.isMember ? "member" : null;
}

export function userInfoView(
  account: Account,
  deploymentEnv: string,
  districts: readonly SchoolDistrictRule[] = [],
): z.input<typeof UserInfoResponse> {
  const { user, instance } = account;
  const properties: Record<string, string> = { ...user.properties };
  if (user.paymentCustomer) properties.stripeId = user.paymentCustomer;
  if (user.paypalSubscriptionId) properties.paypalSubscriptionId = user.paypalSubscriptionId;
  if (user.appliedCoupon) properties.targetedPricingCampaign = user.appliedCoupon;
  return {
    success: true,
    username: user.username,
    userId: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    emailVerified: user.emailVerified,
    activationRequired: user.activationRequired,
    enterpriseMember: instance !== null,
    enterpriseAccountOwner: account.isOwner,
    enterpriseMemberInstance: instance?.name ?? null,
    enterpriseRole: enterpriseRole(account),
    memberState: instance ? (user.memberState ?? "no_license") : null,
    ssoType: user.ssoType,
    canEditSSOCredentials: user.ssoType !== null,
    canEditCredentials: user.ssoType === null,
    instanceId: instance?.id ?? null,
    // What the team has now (its owner's paid team plan), not what it was created with.
    instanceProduct: instance ? (account.team?.productCode ?? FREE_PRODUCT) : null,
    usedSeats: account.usedSeats,
    domainStatus: user.domainStatus,
    privacyPreferences: [
      {
        key: "usage_analytics_web",
        value: user.privacy.usage_analytics_web ?? true,
        defaultValue: true,
      },
    ],
    properties,
    sessionProperties: user.sessionProperties,
    priceTestingGroup: user.priceTestingGroup,
    priceTestingGroupValue: user.priceTestingGroupValue,
    priceCampaignKey: user.priceCampaignKey,
    deploymentEnv,
    useHtmlEditor: prefersHtmlEditor(
      user.properties.useHtmlEditor,
      user.id,
      LEGACY_EDITOR_USER_IDS_BELOW,
    ),
    creationDate: user.createdAt,
    locale: user.locale,
    eu: isGdprCountry(account.location.countryCode),
    // Only the user's own district, with what the redirect needs (productIsFree is decided by
    // the checkout, which knows when the product changes).
    schoolDistricts: districts
      .filter((d) => districtRedirect(user.email, [d], true) !== null)
      .map(({ emailDomains, studentUrl, staffUrl, studentPattern }) => ({
        emailDomains: [...emailDomains],
        studentUrl,
        staffUrl,
        studentPattern,
      })),
  };
}

export function contextView(
  account: Account,
  catalog: Catalog,
): z.input<typeof UserContextResponse> {
  const { user, sub, instance, plan } = account;
  const coupon = user.appliedCoupon;
  const banners = activeCampaigns(catalog, account.now).filter(
    (c) => c.banners.length > 0 && (!c.targeted || couponMatches(c, coupon)),
  );
  const seatPrice = plan ? planPrice(plan, priceSetOf(catalog, account, plan.code)).seatPrice : -1;
  const free = account.productCode === FREE_PRODUCT;
  const expiredAccount =
    sub.expiredFlag ||
    account.isExpiredTrial ||
    (account.isCancelled && (sub.orderEnd ?? 0) <= account.now && !free);
  return {
    isAuth: true,
    userId: user.id,
    productCode: account.productCode,
    orderState: account.orderState,
    prevOrderState: sub.prevOrderState,
    orderEndDate: sub.orderEnd,
    lastOrderId: sub.orderId,
    termDurationMonths: sub.termMonths,
    isTrial: account.isTrial,
    isMemberTrial:
      account.entitlements.source === "team" && isTrialCode(account.entitlements.productCode),
    isExpiredTrial: account.isExpiredTrial,
    isExpiredAccount: expiredAccount,
    isCancelled: account.isCancelled,
    remainingTrialDays: account.remainingTrialDays,
    professionalTrial: account.professionalTrial,
    userHasTrialProduct: isTrialCode(account.productCode),
    userHasPaymentMethodSet: user.paymentCustomer !== null || user.paypalSubscriptionId !== null,
    paymentMethod: account.paymentMethod,
    isPurchaseOrder: account.orderState === "purchaseOrder",
    isManagedAccount: account.managed,
    isUserEnterpriseMember: account.isMember,
    isEnterpriseAdmin: account.isOwner || user.enterpriseRole === "admin",
    hasInstanceProduct: account.isMember && account.entitlements.source === "team",
    disableAccountUpgrades: user.disableAccountUpgrades,
    upgradesDisabled: account.upgradesDisabled,
    androidSubscription: user.androidSubscription,
    itunesSubscription: user.itunesSubscription,
    shouldViewUpgrade:
      !account.managed && !account.upgradesDisabled && (free || account.isTrial || expiredAccount),
    previousTrialOwner: user.previousTrialOwner,
    ccRequiredForTrial: sub.ccRequiredForTrial || user.properties.ccRequiredForTrial === "true",
    vertical: plan?.vertical ?? "personal",
    tier: account.tier,
    accountType: plan?.category ?? "personal",
    targetedPricingCampaign: coupon ?? user.properties.targetedPricingCampaign ?? null,
    showCampaignBanner: banners.length > 0,
    activeTests:
      user.priceTestingGroup && user.priceTestingGroupValue
        ? [{ name: user.priceTestingGroup, data: { value: user.priceTestingGroupValue } }]
        : [],
    seatPrice,
    currentSeats: sub.seats,
    usedSeats: account.usedSeats,
    maxSeats: instance ? (account.team?.seats ?? 0) : sub.seats,
  };
}

function purchasable(catalog: Catalog, account: Account): string[] {
  if (account.managed || account.upgradesDisabled) return [];
  return catalog.plans
    .filter(
      (p) => !p.legacy && !p.isTrial && p.code !== FREE_PRODUCT && p.code !== account.productCode,
    )
    .map((p) => p.code);
}

/**
 * The next renewal (domain/renewals/next-renewal.ts), as the renewal worker will price it: the
 * running product and seats, or the change scheduled for the period end; null when the
 * subscription does not renew. Taxed by the invoices' rule (taxLocationFor), as the renewal is.
 */
export function nextRenewalOf(
  account: Account,
  catalog: Catalog,
  sellerCountry: string,
): NextRenewal | null {
  const { sub, user } = account;
  return nextRenewal(catalog, {
    productCode: sub.productCode,
    orderState: account.orderState,
    seats: sub.seats,
    orderEnd: sub.orderEnd,
    pendingProductCode: sub.pendingProductCode,
    pendingSeats: sub.pendingSeats,
    priceChoice: account.priceChoice,
    recurringCampaign: sub.recurringCampaign,
    priceBasis: sub.priceBasis,
    tax: taxLocationFor({ seller: { country: sellerCountry } }, user, account.billing),
  });
}

/** Essentials cancelled (issue 33, item 8): the period end, when the renewal drops it; else null. */
function essentialsEndsAt(account: Account, catalog: Catalog): number | null {
  const { sub, plan } = account;
  if (!plan?.essentials || sub.pendingProductCode === null) return null;
  const pending = catalog.plans.find((p) => p.code === sub.pendingProductCode);
  return pending && !pending.essentials ? (sub.pendingAt ?? sub.orderEnd) : null;
}

export function productsView(
  account: Account,
  catalog: Catalog,
  sellerCountry: string,
): z.input<typeof ProductsResponse> {
  const { user, sub, plan, instance, entitlements } = account;
  const prices = plan
    ? planPrice(plan, priceSetOf(catalog, account, plan.code))
    : { price: 0, seatPrice: -1 };
  const upgrade = plan?.essentialsUpgrade
    ? catalog.plans.find((p) => p.code === plan.essentialsUpgrade)
    : undefined;
  const addOn = catalog.essentials.addOns.find((a) => a.termDuration === plan?.termDuration);
  // What may be used (features, exports, team) is the entitlements'; plan is what is shown.
  const used = entitlements.plan;
  const exportMax =
    entitlements.exportMinutesPerMonth === null ? -1 : entitlements.exportMinutesPerMonth * 60_000;
  const hd = catalog.singleExports.find((e) => e.resolution !== "2160p");
  const renewal = nextRenewalOf(account, catalog, sellerCountry);
  const uhd = catalog.singleExports.find((e) => e.resolution === "2160p");
  return {
    productCode: account.productCode,
    orderState: account.orderState,
    prevOrderState: sub.prevOrderState,
    orderEndDate: sub.orderEnd,
    orderId: sub.orderId,
    orderDuration: sub.termMonths,
    TrialProduct: plan?.trialProduct ?? trialProductForTier(account.tier),
    "Trial Duration": plan && plan.trialDuration > 0 ? plan.trialDuration : DEFAULT_TRIAL_DAYS,
    FreeProduct: FREE_PRODUCT,
    TermDurationMonths: sub.termMonths ?? plan?.termDuration ?? null,
    "Purchasable Products": purchasable(catalog, account),
    // The same rule as the trial call's (domain/account/trials.ts): no trial after a trial.
    "Purchasable Products Trial": trialOffered({
      hadTrial: user.previousTrialOwner,
      orderState: account.orderState,
      isTrial: account.isTrial,
      isExpiredTrial: account.isExpiredTrial,
      managed: account.managed,
    })
      ? catalog.plans.filter((p) => p.isTrial && !p.legacy).map((p) => p.code)
      : [],
    "Seat Price": Math.max(0, prices.seatPrice),
    Seats: sub.seats,
    sku_term: `${plan?.termDuration ?? 1}m`,
    essentialsInfo: {
      hasEssentials: entitlements.essentials,
      upgradePlan: upgrade?.code ?? null,
      essentialsPrice: plan?.essentials ? plan.essentialsPrice : (addOn?.price ?? 0),
      newTotalPrice: upgrade
        ? planPrice(upgrade, priceSetOf(catalog, account, upgrade.code)).price
        : prices.price,
      endsAt: essentialsEndsAt(account, catalog),
    },
    accountType: plan?.category ?? "personal",
    covidPromotionOrder: sub.covidPromotion,
    previousTrialOwner: user.previousTrialOwner,
    previousTrialProduct: user.previousTrialProduct,
    expiredAccount: account.isExpiredTrial || sub.expiredFlag,
    licensePricingStructure: instance?.licensePricingStructure ?? null,
    hasLicense:
      instance !== null &&
      (account.isOwner
        ? (account.team?.productCode ?? null) !== null
        : entitlements.source === "team"),
    subscriptionName: plan?.name ?? account.productCode,
    baseProductPrice: plan
      ? basePriceWithoutAddOns(plan, catalog, priceSetOf(catalog, account, plan.code))
      : 0,
    Features: entitlements.features.join(" "),
    "4KExportPrice": uhd?.price ?? 0,
    ExportPrice: hd?.price ?? 0,
    // Storage is not sold by the gigabyte in this catalogue.
    "GB Price": 0,
    "Export Upgrades": catalog.exportUpgrades.map((u) => `${u.hours}:${u.price}`).join(","),
    maxExportResolution: entitlements.maxExportResolution,
    maxExportMins: Math.round(catalog.maxExportMs / 60_000),
    ExportQuotaMonths: plan?.validMonths ?? 1,
    Vertical: plan?.vertical ?? "personal",
    PriorityProcessingLevel: used?.multiUser ? 2 : used?.premiumMusic ? 1 : 0,
    excludedFeatures: "",
    FontPackages: "",
    defaultCapacity: plan?.capacity ?? "",
    maxInvitations:
      account.isOwner && instance ? Math.max(0, (account.team?.seats ?? 0) - account.heldSeats) : 0,
    exportTimeLeft: exportMax,
    subscriptionExportTimeMax: exportMax,
    timeUsed: 0,
    exportTimeMax: exportMax,
    flexExportTimeMax: used?.recurring === false ? exportMax : 0,
    nextBillingDate:
      account.orderState === "automatic" && plan?.recurring !== false ? sub.orderEnd : null,
    nextBillingAmount: renewal?.amount ?? null,
    nextRenewal: renewal && {
      at: renewal.at,
      amount: renewal.amount,
      tax: renewal.tax,
      termMonths: renewal.termMonths,
    },
    // A one-time product (Flex) renews never: it is valid until the end of its period.
    validUntil: plan && !plan.recurring && account.orderState === "automatic" ? sub.orderEnd : null,
    upcomingPurchaseOrder: sub.upcomingPurchaseOrder,
    exportCredits: entitlements.exportCredits,
    googleWalletSubscription: user.googleWalletSubscription,
    itunesSubscription: user.itunesSubscription,
    androidSubscription: user.androidSubscription,
    disableAccountUpgrades: user.disableAccountUpgrades,
  };
}
