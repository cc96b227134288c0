// What a purchase does to an account (a trial or a move to the free plan: account-moves.ts). Each
// function writes inside the caller's transaction, so an order and the account change it pays for
// commit together.

import { randomInt } from "node:crypto";
import { purchaseItems } from "../../domain/account/standing-payments.ts";
import { numberedTeamName, teamName } from "../../domain/account/team-name.ts";
import { addMonthsClamped } from "../../domain/calendar/index.ts";
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import { catalogVersionOf } from "../../domain/catalog/version.ts";
import { type PriceChoice, priceSetForPlan } from "../../domain/experiments/price-choice.ts";
import { type OrderSummary, periodValue, resultingProduct } from "../../domain/pricing/index.ts";
import { currentPriceBasis, recurringCampaignOf } from "../../domain/renewals/index.ts";
import { randomId } from "../auth/tokens.ts";
import { CouponRedemptions } from "../db/coupon-redemptions.ts";
import type { Queryable } from "../db/db.ts";
import { type Instance, Instances } from "../db/instances.ts";
import { OrderItems } from "../db/order-items.ts";
import type { Order } from "../db/orders.ts";
import { Orders } from "../db/orders.ts";
import { freeSubscription, Subscriptions } from "../db/subscriptions.ts";
import { type User, Users } from "../db/users.ts";
import type { Account } from "./account.ts";
import type { AccountPricing } from "./account-pricing.ts";
import { recordEnrolledEvent } from "./experiments.ts";

export type Payment = {
  processor: "cc" | "paypal";
  chargeRef: string | null;
  idempotencyKey: string | null;
};

function productName(catalog: Catalog, code: string): string {
  return (
    catalog.plans.find((p) => p.code === code)?.name ??
    catalog.singleExports.find((e) => e.code === code)?.name ??
    (catalog.exportUpgrades.some((u) => u.code === code) ? "Export upgrade" : code)
  );
}

export function buildOrder(
  catalog: Catalog,
  account: Account,
  pricing: AccountPricing,
  input: { code: string; addOns: readonly string[] },
  payment: Payment,
  now: number,
): Order {
  const plan = catalog.plans.find((p) => p.code === input.code) ?? null;
  const { summary } = pricing;
  const months = plan ? (plan.validMonths ?? plan.termDuration) : 0;
  return {
    id: randomId("ord"),
    userId: account.user.id,
    kind: plan ? "plan" : "one_off",
    productCode: plan ? resultingProduct(catalog, plan, input.addOns) : input.code,
    productName: productName(catalog, input.code),
    seats: pricing.seats,
    addOns: [...input.addOns],
    subTotal: summary.subTotal,
    salesTax: summary.salesTax,
    total: summary.total,
    // An addition's price is what the subscription renews at; anything else's, before credit.
    listPrice: summary.addition
      ? summary.newSubscription.recurringBasePrice +
        summary.newSubscription.extraSeatsRecurringPrice
      : summary.subTotal + summary.proration.prorateAmount,
    prorateAmount: summary.proration.prorateAmount,
    currency: "USD",
    processor: payment.processor,
    chargeRef: payment.chargeRef,
    invoiceId: randomId("in"),
    periodStart: now,
    // An addition covers the rest of the running period; anything else starts a new one.
    periodEnd: summary.addition
      ? summary.addition.periodEnd
      : plan
        ? addMonthsClamped(now, months)
        : now,
    termMonths: plan ? plan.termDuration : 0,
    coupon: pricing.coupon,
    idempotencyKey: payment.idempotencyKey,
    createdAt: now,
    ...pricedWith(catalog, account.priceChoice, input.code),
  };
}

/** What an order records of the prices it used: the catalogue version and the price set. */
export function pricedWith(
  catalog: Catalog,
  choice: PriceChoice,
  productCode: string,
): { catalogVersion: string; priceSet: string } {
  return {
    catalogVersion: catalogVersionOf(catalog),
    priceSet: priceSetForPlan(catalog, choice, productCode) ?? "default",
  };
}

/**
 * The names a new team tries in turn: the owner's chosen one, numbered readably ("Acme (2)") when
 * another team has it (issue 34), then with a random tail after the few numbers a name might
 * reasonably need.
 */
function* teamNameCandidates(wanted: string): Generator<string> {
  yield wanted;
  for (let n = 2; n <= 20; n++) yield numberedTeamName(wanted, n);
  for (let tries = 0; tries < 10; tries++) yield numberedTeamName(wanted, randomInt(21, 1_000_000));
}

/** Creates the buyer's team workspace, or resizes the one they own. */
export async function ensureInstance(
  tx: Queryable,
  user: User,
  owned: Instance | null,
  input: {
    productCode: string;
    seats: number;
    name: string | null;
    pricingStructure: string | null;
    now: number;
  },
): Promise<number> {
  if (owned) {
    await Instances.update(tx, owned.id, {
      productCode: input.productCode,
      maxSeats: input.seats,
      licensePricingStructure: input.pricingStructure,
    });
    return owned.id;
  }
  // The one team-name rule (issue 18, item 15): no markup is ever stored.
  const wanted = teamName(input.name, `${user.firstName || "team"}'s team`);
  let id: number | null = null;
  for (const name of teamNameCandidates(wanted)) {
    id = await Instances.insertUnlessNameTaken(tx, {
      name,
      ownerUserId: user.id,
      productCode: input.productCode,
      maxSeats: input.seats,
      coupon: null,
      licensePricingStructure: input.pricingStructure,
      createdAt: input.now,
      disbandedAt: null,
    });
    if (id !== null) break;
  }
  if (id === null) throw new Error(`no free team name found for "${wanted}"`);
  await Users.update(tx, user.id, {
    instanceId: id,
    memberState: "approved",
    enterpriseRole: "admin",
  });
  return id;
}

/** Writes a paid order and gives the account what it paid for. */
/**
 * The isolation an order's commit (applyOrder, then the stored answer) needs. A one-off purchase
 * writes only statements that are atomic on their own and read nothing first that they depend on
 * (the order row, an added export credit, its invoice numbered by an atomic counter upsert, the
 * receipt, the key's conditional completion), so it commits at read committed: a
 * customer's concurrent one-off purchases (which take no account lock, decision 0013) then
 * queue on the subscription row instead of failing to serialize and running again one at a
 * time. A plan change reads the subscription to write it and stays serializable.
 */
export function commitIsolation(order: Order): "serializable" | "read committed" {
  return order.kind === "one_off" ? "read committed" : "serializable";
}

export async function applyOrder(
  tx: Queryable,
  catalog: Catalog,
  account: Account,
  order: Order,
  summary: OrderSummary,
): Promise<void> {
  const { user } = account;
  if (order.kind === "one_off") {
    // Reads nothing: see commitIsolation. Issued together: on PostgreSQL one round trip for
    // both (decision 0074).
    const credits = 1 + order.addOns.length;
    await Promise.all([
      Orders.insert(tx, order),
      OrderItems.insert(tx, order, [{ kind: "exportCredits", credits }]),
      Subscriptions.addExportCredits(tx, user.id, credits, order.createdAt),
    ]);
    return;
  }
  await Orders.insert(tx, order);
  // A plan bought in a price experiment (decision 0089): once per experiment and visitor.
  await recordEnrolledEvent(tx, account, {
    kind: "purchase",
    productCode: order.productCode,
    orderId: order.id,
    at: order.createdAt,
  });
  let sub = await Subscriptions.get(tx, user.id);
  if (!sub) {
    sub = freeSubscription(user.id, order.createdAt);
    await Subscriptions.insert(tx, sub);
  }
  const plan = catalog.plans.find((p) => p.code === order.productCode);
  // What this payment paid for (decision 0075): a refund of it takes back exactly that. An
  // addition, or an upgrade credit, rests on the payment of the plan of the running period.
  const restsOn =
    sub.orderId !== null && (summary.addition !== null || summary.proration.prorateAmount > 0)
      ? await OrderItems.planPaymentOf(tx, sub.orderId)
      : sub.orderId;
  await OrderItems.insert(
    tx,
    order,
    purchaseItems({
      plan: true,
      productCode: order.productCode,
      seats: order.seats,
      periodStart: order.periodStart,
      periodEnd: order.periodEnd,
      value: summary.addition ? summary.addition.termValueAdded : periodValue(summary),
      credit: summary.proration.prorateAmount,
      addition: summary.addition !== null,
      exportCredits: order.addOns.filter(
        (a) => !catalog.essentials.addOns.some((e) => e.code === a),
      ).length,
      previous: { paymentId: restsOn, productCode: sub.productCode, seats: sub.seats },
    }),
  );
  if (summary.addition !== null) {
    // Seats or essentials added to the running period (issue 18, item 9): the period, its anchor
    // and its campaign stay; what renews on its date is the product and seats now held.
    await Subscriptions.update(tx, user.id, {
      productCode: order.productCode,
      orderId: order.id,
      seats: order.seats,
      // The period is now worth a full term of what it holds: a later change credits its unused
      // part (unusedCredit), which the pro-rata charge paid for from now on.
      paidCents: sub.paidCents + summary.addition.termValueAdded,
      // A purchase replaces whatever downgrade was waiting for the period end.
      pendingProductCode: null,
      pendingSeats: null,
      pendingAt: null,
      exportCredits:
        sub.exportCredits +
        order.addOns.filter((a) => !catalog.essentials.addOns.some((e) => e.code === a)).length,
      priceBasis:
        order.productCode === sub.productCode && sub.priceBasis
          ? sub.priceBasis
          : currentPriceBasis(catalog, order.productCode, {
              priceChoice: account.priceChoice,
              atMs: order.createdAt,
            }),
      updatedAt: order.createdAt,
    });
    if (plan?.multiUser) {
      await ensureInstance(tx, user, account.isOwner ? account.instance : null, {
        productCode: order.productCode,
        seats: order.seats,
        name: user.properties.desiredInstanceName ?? null,
        pricingStructure: plan.seatStructure,
        now: order.createdAt,
      });
    }
    return;
  }
  await Subscriptions.update(tx, user.id, {
    productCode: order.productCode,
    orderState: "automatic",
    prevOrderState: sub.orderState,
    orderId: order.id,
    orderStart: order.periodStart,
    orderEnd: order.periodEnd,
    termMonths: order.termMonths,
    seats: order.seats,
    paidCents: periodValue(summary),
    paymentProcessor: order.processor,
    expiredFlag: false,
    exportCredits:
      sub.exportCredits +
      order.addOns.filter((a) => !catalog.essentials.addOns.some((e) => e.code === a)).length,
    // A purchase replaces whatever downgrade was waiting for the period end.
    pendingProductCode: null,
    pendingSeats: null,
    pendingAt: null,
    // A new subscription: its periods are counted from this order's start (renewals).
    periodAnchor: order.periodStart,
    periodIndex: 0,
    recurringCampaign: recurringCampaignOf(catalog, {
      productCode: order.productCode,
      atMs: order.createdAt,
      coupon: order.coupon,
    }),
    // The prices it signed up at, in the buyer's price set: its renewals keep them (the
    // catalogue's price migrations aside). The purchase was priced on the default structure.
    priceBasis: currentPriceBasis(catalog, order.productCode, {
      priceChoice: account.priceChoice,
      atMs: order.createdAt,
    }),
    updatedAt: order.createdAt,
  });
  await Users.update(tx, user.id, { appliedCoupon: null });
  if (summary.coupon?.applied && summary.newSubscription.firstTermDiscount > 0) {
    // Its first-term discount is taken: not again on this account (issue 18, item 5).
    await CouponRedemptions.record(tx, {
      userId: user.id,
      coupon: summary.coupon.code,
      orderId: order.id,
      now: order.createdAt,
    });
  }
  if (plan?.multiUser) {
    await ensureInstance(tx, user, account.isOwner ? account.instance : null, {
      productCode: order.productCode,
      seats: order.seats,
      name: user.properties.desiredInstanceName ?? null,
      pricingStructure: plan.seatStructure,
      now: order.createdAt,
    });
  }
}
