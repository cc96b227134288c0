// A renewal period paid, written the same way whoever collected the money: the renewal worker's
// card charge and a customer's authenticated payment (renewals.ts), and PayPal's own billing, its
// PAYMENT.SALE.COMPLETED (paypal-webhooks.ts). What the period changes is one rule
// (src/domain/renewals/paid-period.ts); this file prices the period and writes it: the order, the
// subscription's new period (a change scheduled for the period end applied and no longer
// pending), the team workspace the account owns, and the invoice whose e-mail is the receipt.
// Each caller claims the period its own way, inside the same transaction, and numbers the
// invoice after its commit (decision 0062).
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import type { PriceChoice } from "../../domain/experiments/price-choice.ts";
import type { DocumentLine } from "../../domain/invoices/document.ts";
import {
  currentPriceBasis,
  type PriceBasis,
  paidPeriodChanges,
  type RenewalCharge,
  type RenewalStep,
  renewalCharge,
} from "../../domain/renewals/index.ts";
import { nextRenewal } from "../../domain/renewals/next-renewal.ts";
import { randomId } from "../auth/tokens.ts";
import type { Config } from "../config.ts";
import type { Queryable } from "../db/db.ts";
import { type Instance, Instances } from "../db/instances.ts";
import { BillingDetailsTable } from "../db/invoices.ts";
import { OrderItems } from "../db/order-items.ts";
import { type Order, Orders } from "../db/orders.ts";
import { type Subscription, Subscriptions } from "../db/subscriptions.ts";
import type { User } from "../db/users.ts";
import { recordAfterSale, storedPriceChoice } from "./experiments.ts";
import { type InvoiceDeps, issueInvoice, taxLocationOf } from "./invoices.ts";
import { pricedWith } from "./orders.ts";

export type RenewStep = Extract<RenewalStep, { kind: "renew" }>;

type PriceDeps = {
  db: Queryable;
  catalog: Catalog;
  config: { seller: Pick<Config["seller"], "country"> };
};

/** The workspace the account owns, or null (a member's workspace is its owner's to change). */
export async function ownedInstance(q: Queryable, user: User): Promise<Instance | null> {
  if (user.instanceId === null) return null;
  const instance = await Instances.byId(q, user.instanceId);
  return instance?.ownerUserId === user.id ? instance : null;
}

/**
 * What the period of `step` costs this customer at `atMs` (the order summary's recurring
 * figures, taxed by the invoices' rule: an EU business elsewhere in the EU renews without VAT).
 */
export async function priceRenewal(
  deps: PriceDeps,
  user: User,
  sub: Subscription,
  step: RenewStep,
  atMs: number,
) {
  const tax = await taxLocationOf(deps.db, deps.config, user);
  return renewalCharge(
    deps.catalog,
    {
      productCode: step.productCode,
      seats: step.seats,
      priceChoice: await storedPriceChoice(deps.db, deps.catalog, user, atMs),
      recurringCampaign: step.scheduledChange ? null : sub.recurringCampaign,
      tax,
      basis: sub.priceBasis ?? (await licensedBasis(deps, user, sub, step.productCode)),
      periodStart: step.start,
    },
    atMs,
  );
}

/**
 * The prices of a subscription bought before prices were recorded (migration 9): the seat
 * structure its workspace is licensed on, today's prices otherwise; null when nothing is known.
 */
async function licensedBasis(
  { db, catalog }: PriceDeps,
  user: User,
  sub: Subscription,
  productCode: string,
): Promise<PriceBasis | null> {
  const structure = (await ownedInstance(db, user))?.licensePricingStructure ?? null;
  if (structure === null) return null;
  const atMs = sub.periodAnchor ?? sub.orderStart ?? 0;
  return currentPriceBasis(catalog, productCode, {
    priceChoice: await storedPriceChoice(db, catalog, user, atMs),
    seatStructure: structure,
    atMs,
  });
}

/** A paid renewal period's order: the worker's charge, or PayPal's own billing (its webhook). */
export function renewalOrder(
  catalog: Catalog,
  user: User,
  paid: {
    productCode: string;
    seats: number;
    subTotal: number;
    salesTax: number;
    total: number;
    processor: Order["processor"];
    chargeRef: string | null;
    periodStart: number;
    periodEnd: number;
    termMonths: number;
    idempotencyKey: string;
    createdAt: number;
    /** What priced the period (services/experiments.ts storedPriceChoice). */
    priceChoice: PriceChoice;
  },
): Order {
  const plan = catalog.plans.find((p) => p.code === paid.productCode);
  return {
    id: randomId("ord"),
    userId: user.id,
    kind: "plan",
    productCode: paid.productCode,
    productName: plan?.name ?? paid.productCode,
    seats: paid.seats,
    addOns: [],
    subTotal: paid.subTotal,
    salesTax: paid.salesTax,
    total: paid.total,
    listPrice: paid.subTotal,
    prorateAmount: 0,
    currency: "USD",
    processor: paid.processor,
    chargeRef: paid.chargeRef,
    invoiceId: randomId("in"),
    periodStart: paid.periodStart,
    periodEnd: paid.periodEnd,
    termMonths: paid.termMonths,
    coupon: null,
    idempotencyKey: paid.idempotencyKey,
    createdAt: paid.createdAt,
    ...pricedWith(catalog, paid.priceChoice, paid.productCode),
  };
}

/**
 * Writes "this renewal period is paid", inside the caller's transaction once it has claimed the
 * period: the order, the subscription's new period, the owned workspace, the invoice and its
 * receipt. The order is the period's (renewalOrder: its product, seats, amounts and dates).
 */
export async function recordPaidRenewal(
  tx: Queryable,
  deps: InvoiceDeps & { catalog: Catalog },
  paid: {
    user: User;
    order: Order;
    step: RenewStep;
    /** The prices to keep for the next renewal; undefined when unknown (the recorded ones stay). */
    basis: PriceBasis | null | undefined;
    /**
     * The pricing module's figures of this period when they are what was paid (the invoice's
     * lines and tax rate); null when the amount paid is all that is known (one line, no rate).
     */
    charge: RenewalCharge | null;
    /** A payment after a refusal: the receipt says the subscription continues. */
    recovered: boolean;
    now: number;
  },
): Promise<void> {
  const { catalog } = deps;
  const { user, order, step, charge } = paid;
  const changes = paidPeriodChanges(catalog, {
    anchor: step.anchor,
    index: step.index,
    termMonths: step.termMonths,
    scheduledChange: step.scheduledChange,
    productCode: order.productCode,
    seats: order.seats,
    periodStart: order.periodStart,
    periodEnd: order.periodEnd ?? step.end,
    orderId: order.id,
    paidCents: order.subTotal,
    basis: paid.basis,
  });
  await Orders.insert(tx, order);
  // The first paid renewal of a subscription bought in a price experiment (decision 0089).
  await recordAfterSale(tx, catalog, {
    userId: user.id,
    kind: "renewal",
    orderId: order.id,
    at: paid.now,
  });
  // A renewal buys its period's plan on its own (decision 0075): it rests on no earlier payment.
  await OrderItems.insert(tx, order, [
    {
      kind: "plan",
      productCode: order.productCode,
      seats: order.seats,
      periodStart: order.periodStart,
      periodEnd: order.periodEnd,
      value: order.subTotal,
    },
  ]);
  await Subscriptions.update(tx, user.id, { ...changes.subscription, updatedAt: paid.now });
  if (changes.workspace !== null) {
    const owned = await ownedInstance(tx, user);
    if (owned !== null) await Instances.update(tx, owned.id, changes.workspace);
  }
  // The renewal's e-mail names the next renewal as every screen does (issue 33, item 9).
  const renewed = await Subscriptions.get(tx, user.id);
  const next =
    renewed &&
    nextRenewal(catalog, {
      productCode: renewed.productCode,
      orderState: renewed.orderState,
      seats: renewed.seats,
      orderEnd: renewed.orderEnd,
      pendingProductCode: renewed.pendingProductCode,
      pendingSeats: renewed.pendingSeats,
      priceChoice: await storedPriceChoice(tx, catalog, user, paid.now),
      recurringCampaign: renewed.recurringCampaign,
      priceBasis: renewed.priceBasis,
      tax: await taxLocationOf(tx, deps.config, user),
    });
  // The renewal's e-mail is its receipt: it names the invoice's number, so the numbering pass
  // right after the commit queues it (decision 0062).
  await issueInvoice(
    tx,
    deps,
    {
      order,
      user,
      // A renewal has no account read beside it: the details as its commit finds them.
      billing: await BillingDetailsTable.get(tx, user.id),
      lines: renewalLines(order, charge, catalog),
      ratePercent: charge?.ratePercent ?? 0,
    },
    {
      kind: "renewal",
      planName: order.productName,
      total: order.total,
      periodStart: order.periodStart,
      periodEnd: order.periodEnd ?? step.end,
      processor: order.processor === "paypal" ? "paypal" : "cc",
      recovered: paid.recovered,
      nextRenewal: next && {
        at: next.at,
        amount: next.amount,
        tax: next.tax,
        termMonths: next.termMonths,
      },
    },
  );
}

/**
 * The lines of a renewal's invoice: the plan for its seats and, with a recurring campaign, its
 * discount. A claim retried after the prices moved keeps the figures it was claimed with, and a
 * payment the pricing module does not account for is what was paid (one line, its subtotal): the
 * invoice says what was charged.
 */
function renewalLines(
  order: Order,
  charge: RenewalCharge | null,
  catalog: Catalog,
): DocumentLine[] {
  const seats = `${order.seats} ${order.seats === 1 ? "seat" : "seats"}`;
  const label = `${order.productName}, renewal (${seats})`;
  if (charge === null || charge.subTotal !== order.subTotal || charge.discount === 0) {
    return [{ kind: "renewal", label, amount: order.subTotal }];
  }
  const campaign = catalog.campaigns.find((c) => c.id === charge.campaignApplied);
  return [
    { kind: "renewal", label, amount: order.subTotal + charge.discount },
    {
      kind: "discount",
      label: `${campaign?.name ?? "Campaign"} discount (every term)`,
      amount: -charge.discount,
    },
  ];
}
