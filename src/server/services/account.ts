// An account as the rules of spec section 4 see it: the user, the subscription, the team
// workspace, and every flag derived from them at the clock's current time. Views (user info,
// context, products) and the payment rules all start from here.
import { educationEligible } from "../../domain/account/email-rules.ts";
import {
  type Entitlements,
  entitlementsOf,
  type PaidFacts,
  type TeamPaid,
  teamPaidNow,
} from "../../domain/account/entitlements.ts";
import {
  effectiveOrderState,
  isCancelled,
  isExpiredTrial,
  isManagedAccount,
  type OrderState,
  parseOrderState,
  remainingDays,
  upgradesDisabled,
} from "../../domain/account/order-state.ts";
import { paymentMethodOf } from "../../domain/account/payment-method.ts";
import { resolveTier, type Tier } from "../../domain/account/tier.ts";
import type { Catalog, PlanEntry } from "../../domain/catalog/catalog-schema.ts";
import type { PriceChoice } from "../../domain/experiments/price-choice.ts";
import { CouponRedemptions } from "../db/coupon-redemptions.ts";
import type { Queryable } from "../db/db.ts";
import { type Instance, Instances, Invites } from "../db/instances.ts";
import { type BillingDetails, BillingDetailsTable } from "../db/invoices.ts";
import { freeSubscription, type Subscription, Subscriptions } from "../db/subscriptions.ts";
import { type SessionRows, type User, Users } from "../db/users.ts";
import {
  type AccountExperiments,
  experimentsOf,
  priceChoiceOf,
  subscriberFacts,
} from "./experiments.ts";
import { type Location, locationOf } from "./location.ts";

export type Account = {
  user: User;
  sub: Subscription;
  instance: Instance | null;
  isOwner: boolean;
  /** An enterprise member who is not the owner. */
  isMember: boolean;
  /**
   * What the account may use now (domain/account/entitlements.ts): its own subscription, or the
   * team's current paid state for an approved member. Features, seats and exports read this.
   */
  entitlements: Entitlements;
  /** What the workspace the account owns or belongs to has now; null without one. */
  team: TeamPaid | null;
  /**
   * The product the account shows: the team's while a member uses it, else the account's own
   * order (an expired trial still names its trial, with isExpiredTrial).
   */
  productCode: string;
  plan: PlanEntry | null;
  orderState: OrderState;
  remainingTrialDays: number | null;
  isTrial: boolean;
  isExpiredTrial: boolean;
  isCancelled: boolean;
  professionalTrial: boolean;
  managed: boolean;
  upgradesDisabled: boolean;
  paymentMethod: "paypal" | "cc" | null;
  usedSeats: number;
  /** Coupons whose discount the account has taken (issue 18, item 5), lower case. */
  redeemedCoupons: string[];
  /** Seats held in the workspace: approved members and invitations to an address not accepted. */
  heldSeats: number;
  tier: Tier;
  location: Location;
  /** The organisation and tax id given at checkout or on the account page (issue 23), if any. */
  billing: BillingDetails | null;
  /** Its visitor id and standing in the running price experiments (services/experiments.ts). */
  experiments: AccountExperiments;
  /** What prices each plan for it: its experiment groups, else its price-testing group. */
  priceChoice: PriceChoice;
  now: number;
};

/**
 * Spec 6 (domain educationEligible): whether this account may quote, buy or try this product. An
 * education product needs a verified education address (school districts' domains count).
 */
export function educationEligibleFor(catalog: Catalog, account: Account, code: string): boolean {
  return educationEligible({
    productCode: code,
    email: account.user.email,
    emailVerified: account.user.emailVerified,
    extraDomains: catalog.schoolDistricts.flatMap((d) => d.emailDomains),
  });
}

function planOf(catalog: Catalog, code: string): PlanEntry | null {
  return catalog.plans.find((p) => p.code === code) ?? null;
}

/** A subscription row as the entitlement rules read it. */
export function paidFacts(sub: Subscription): PaidFacts {
  return {
    productCode: sub.productCode,
    orderState: sub.orderState,
    covidPromotion: sub.covidPromotion,
    orderEnd: sub.orderEnd,
    expired: sub.expiredFlag,
    seats: sub.seats,
    pendingProductCode: sub.pendingProductCode,
    pendingSeats: sub.pendingSeats,
    pendingAt: sub.pendingAt,
    exportCredits: sub.exportCredits,
  };
}

export async function loadAccount(
  q: Queryable,
  catalog: Catalog,
  user: User,
  now: number,
  /** What the caller read already with the session (Users.bySession), when it is this user's. */
  prefetched: SessionRows | null = null,
  /**
   * The visitor id the experiments follow: a visitor's (the cookie's), or the account's when the
   * caller has read it already; undefined reads the account's.
   */
  visitorId?: string | null,
): Promise<Account> {
  const read = prefetched?.userId === user.id ? prefetched : null;
  const sub =
    (read ? read.subscription : await Subscriptions.get(q, user.id)) ??
    freeSubscription(user.id, now);
  const instance = user.instanceId === null ? null : await Instances.byId(q, user.instanceId);
  const isOwner = instance !== null && instance.ownerUserId === user.id;
  const isMember = instance !== null && !isOwner;
  const approvedMember = isMember && user.memberState === "approved";
  const owner =
    instance === null
      ? null
      : isOwner
        ? sub
        : instance.ownerUserId === null
          ? null
          : await Subscriptions.get(q, instance.ownerUserId);
  const entitlements = entitlementsOf({
    own: paidFacts(sub),
    team: approvedMember ? { owner: owner && paidFacts(owner) } : null,
    plans: catalog.plans,
    now,
  });
  const team = instance ? teamPaidNow(owner && paidFacts(owner), catalog.plans, now) : null;
  const productCode = entitlements.source === "team" ? entitlements.productCode : sub.productCode;
  const plan = planOf(catalog, productCode);
  const orderState = effectiveOrderState(parseOrderState(sub.orderState), sub.covidPromotion);
  const days = orderState === "automatic" ? null : remainingDays(sub.orderEnd, now);
  const professionalTrial = productCode === "wv_bizindiv_trial";
  const usedSeats = instance ? await Users.countApprovedMembers(q, instance.id) : 0;
  const heldSeats = instance ? usedSeats + (await Invites.countPending(q, instance.id)) : 0;
  const isTrial = orderState === "trial";
  const expiredTrial =
    (orderState === "trial" || orderState === "cancelled") &&
    isExpiredTrial({
      orderState,
      hasProductInfo: true,
      expiredAccount: sub.expiredFlag,
      remainingDays: days,
      professionalTrial,
      orderEndDate: sub.orderEnd,
      now,
    });
  const experiments = await experimentsOf(q, catalog, {
    userId: user.id,
    visitorId: user.id > 0 ? visitorId : (visitorId ?? null),
    facts: subscriberFacts({
      sub,
      orderState,
      isTrial,
      isExpiredTrial: expiredTrial,
      teamCovered: entitlements.source === "team",
      now,
    }),
    now,
  });
  return {
    user,
    sub,
    instance,
    isOwner,
    isMember,
    entitlements,
    team,
    productCode,
    plan,
    orderState,
    remainingTrialDays: orderState === "trial" ? days : null,
    isTrial,
    isExpiredTrial: expiredTrial,
    isCancelled: isCancelled({ orderState, remainingDays: days }),
    professionalTrial,
    managed: isManagedAccount({
      enterpriseMember: isMember,
      enterpriseAccountOwner: isOwner,
      orderState,
    }),
    upgradesDisabled: upgradesDisabled(user),
    paymentMethod: paymentMethodOf({
      paypalSubscriptionId: user.paypalSubscriptionId,
      stripeId: user.paymentCustomer,
      paymentMethod: sub.paymentProcessor,
    }),
    usedSeats,
    redeemedCoupons: read ? read.redeemedCoupons : await CouponRedemptions.ofUser(q, user.id),
    heldSeats,
    tier: resolveTier({ tier: plan?.tier ?? "personal", productCode }),
    location: locationOf(user),
    billing: read ? read.billing : await BillingDetailsTable.get(q, user.id),
    experiments,
    priceChoice: priceChoiceOf(experiments, user.priceTestingGroupValue),
    now,
  };
}
