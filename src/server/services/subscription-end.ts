// The account once its subscription ends (a lapse, a cancelled period run out, a full refund), and
// the subscription facts the renewal rules read.
import { FREE_PRODUCT } from "../../domain/account/tier.ts";
import { endedState } from "../../domain/renewals/index.ts";
import type { Queryable } from "../db/db.ts";
import { Instances, Invites } from "../db/instances.ts";
import { Renewals } from "../db/renewals.ts";
import { type Subscription, Subscriptions } from "../db/subscriptions.ts";
import { type User, Users } from "../db/users.ts";
import { ownedInstance } from "./paid-renewal.ts";

/** The facts of a subscription the renewal rules read. */
export function billingState(sub: Subscription) {
  return {
    productCode: sub.productCode,
    orderState: sub.orderState,
    seats: sub.seats,
    termMonths: sub.termMonths,
    orderStart: sub.orderStart,
    orderEnd: sub.orderEnd,
    periodAnchor: sub.periodAnchor,
    periodIndex: sub.periodIndex,
    pendingProductCode: sub.pendingProductCode,
    pendingSeats: sub.pendingSeats,
    pendingAt: sub.pendingAt,
    expired: sub.expiredFlag,
  };
}

/** Seats held in the workspace the account owns (members and pending invitations), else 0. */
export async function seatsHeld(q: Queryable, user: User): Promise<number> {
  const owned = await ownedInstance(q, user);
  if (owned === null) return 0;
  return (
    (await Users.countApprovedMembers(q, owned.id)) + (await Invites.countPending(q, owned.id))
  );
}

/**
 * The account once its subscription has ended (src/domain/renewals endedState): the free plan,
 * cancelled and expired; the team workspace it owns falls to the free plan with it.
 */
export async function endSubscription(
  tx: Queryable,
  user: User,
  sub: Subscription,
  now: number,
): Promise<void> {
  const ended = endedState(sub);
  await Subscriptions.update(tx, user.id, {
    productCode: ended.productCode,
    orderState: ended.orderState,
    prevOrderState: ended.prevOrderState,
    expiredFlag: ended.expired,
    seats: ended.seats,
    paidCents: ended.paidCents,
    pendingProductCode: null,
    pendingSeats: null,
    pendingAt: null,
    recurringCampaign: null,
    updatedAt: now,
  });
  await Renewals.closeFailed(tx, user.id, now);
  const owned = await ownedInstance(tx, user);
  if (owned !== null) await Instances.update(tx, owned.id, { productCode: FREE_PRODUCT });
}
