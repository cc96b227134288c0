// What a trial or leaving a paid plan does to an account: the trial started (its order and
// workspace), the account back on the free plan, a team workspace disbanded. Each function writes
// inside the caller's transaction, as a purchase's (orders.ts) does.
import { FREE_PRODUCT } from "../../domain/account/tier.ts";
import type { PlanEntry } from "../../domain/catalog/catalog-schema.ts";
import { randomId } from "../auth/tokens.ts";
import { DAY_MS } from "../clock.ts";
import type { Queryable } from "../db/db.ts";
import { type Instance, Instances } from "../db/instances.ts";
import { Orders } from "../db/orders.ts";
import { freeSubscription, Subscriptions } from "../db/subscriptions.ts";
import { Users } from "../db/users.ts";
import type { Account } from "./account.ts";
import { ensureInstance } from "./orders.ts";
import { fateOf } from "./teams.ts";

/** Back to the free plan; the previous state is kept as prevOrderState. */
export async function convertToFree(tx: Queryable, account: Account, now: number): Promise<void> {
  const sub = await Subscriptions.get(tx, account.user.id);
  if (!sub) {
    await Subscriptions.insert(tx, freeSubscription(account.user.id, now));
    return;
  }
  await Subscriptions.update(tx, account.user.id, {
    productCode: FREE_PRODUCT,
    orderState: "cancelled",
    prevOrderState: sub.orderState,
    orderEnd: now,
    paidCents: 0,
    seats: 1,
    updatedAt: now,
  });
}

/**
 * Dissolves a team workspace: members lose the licence; with deleteMembers, the accounts the team
 * gave out are deleted, but members who brought a paid account of their own keep it (teams.ts).
 */
export async function disbandInstance(
  tx: Queryable,
  instance: Instance,
  options: { deleteMembers: boolean; now: number },
): Promise<void> {
  for (const member of await Users.membersOf(tx, instance.id)) {
    if (member.id === instance.ownerUserId) {
      await Users.update(tx, member.id, {
        instanceId: null,
        memberState: null,
        enterpriseRole: null,
      });
    } else if ((await fateOf(tx, member.id, options.deleteMembers, instance.id)) === "delete") {
      await Users.delete(tx, member.id);
    } else {
      await Users.update(tx, member.id, {
        instanceId: null,
        memberState: "no_license",
        enterpriseRole: null,
      });
    }
  }
  await Instances.update(tx, instance.id, {
    disbandedAt: options.now,
    coupon: null,
    name: `${instance.name} (disbanded ${instance.id})`,
  });
}

export function trialDays(plan: PlanEntry, fallback: number): number {
  return plan.trialDuration > 0 ? plan.trialDuration : fallback;
}

/** Starts a trial: a zero-total order, the trial product until the end date. */
export async function startTrial(
  tx: Queryable,
  account: Account,
  plan: PlanEntry,
  input: { days: number; instanceName: string | null; now: number },
): Promise<{ orderId: string; orderEnd: number; instanceName: string | null }> {
  const { user } = account;
  const orderId = randomId("ord");
  const orderEnd = input.now + input.days * DAY_MS;
  const seats = plan.multiUser ? Math.max(1, plan.includedSeats) : 1;
  await Orders.insert(tx, {
    id: orderId,
    userId: user.id,
    kind: "trial",
    productCode: plan.code,
    productName: plan.name,
    seats,
    addOns: [],
    subTotal: 0,
    salesTax: 0,
    total: 0,
    listPrice: 0,
    prorateAmount: 0,
    currency: "USD",
    processor: null,
    chargeRef: null,
    invoiceId: null,
    periodStart: input.now,
    periodEnd: orderEnd,
    termMonths: 0,
    coupon: null,
    idempotencyKey: null,
    createdAt: input.now,
    // A trial prices nothing.
    catalogVersion: null,
    priceSet: null,
  });
  const sub = await Subscriptions.get(tx, user.id);
  if (!sub) await Subscriptions.insert(tx, freeSubscription(user.id, input.now));
  await Subscriptions.update(tx, user.id, {
    productCode: plan.code,
    orderState: "trial",
    prevOrderState: sub?.orderState ?? null,
    orderId,
    orderStart: input.now,
    orderEnd,
    termMonths: null,
    seats,
    paidCents: 0,
    expiredFlag: false,
    updatedAt: input.now,
  });
  const needsVerification = plan.isTrial && !user.emailVerified;
  await Users.update(tx, user.id, {
    previousTrialOwner: true,
    previousTrialProduct: plan.code,
    ...(needsVerification ? { activationRequired: true } : {}),
  });
  let instanceName: string | null = null;
  if (plan.multiUser) {
    const id = await ensureInstance(tx, user, account.isOwner ? account.instance : null, {
      productCode: plan.code,
      seats,
      name: input.instanceName ?? user.properties.desiredInstanceName ?? null,
      pricingStructure: plan.seatStructure,
      now: input.now,
    });
    instanceName = (await Instances.byId(tx, id))?.name ?? null;
  }
  return { orderId, orderEnd, instanceName };
}
