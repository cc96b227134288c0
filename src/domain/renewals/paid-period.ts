// What a paid renewal period changes, however it was paid: the renewal worker's card charge, a
// customer's authenticated payment, or PayPal's own billing (its PAYMENT.SALE.COMPLETED). One rule,
// so that what a customer may use after a renewal is what that period paid for whatever the
// provider: the subscription moves to the new period (and drops the change it applied), and the
// team workspace the account owns follows a scheduled change of product or seats.
import type { Catalog } from "../catalog/catalog-schema.ts";
import type { PriceBasis } from "./price-basis.ts";
import type { RenewalStep } from "./schedule.ts";

/** The period a renewal paid: the step that priced it, and what was recorded for it. */
export type PaidPeriod = Pick<
  Extract<RenewalStep, { kind: "renew" }>,
  "anchor" | "index" | "termMonths" | "scheduledChange"
> & {
  productCode: string;
  seats: number;
  periodStart: number;
  periodEnd: number;
  orderId: string;
  /** What the period cost before tax (the order's subtotal). */
  paidCents: number;
  /**
   * The prices the period was charged at, which the next renewal keeps (null: none to keep);
   * undefined when they are not known (a payment the pricing module could not price): the
   * recorded ones stay.
   */
  basis: PriceBasis | null | undefined;
};

/** The subscription's fields a paid period writes (the server's subscriptions row). */
export type PaidSubscription = {
  productCode: string;
  orderId: string;
  orderStart: number;
  orderEnd: number;
  termMonths: number;
  seats: number;
  paidCents: number;
  periodAnchor: number;
  periodIndex: number;
  priceBasis?: PriceBasis | null;
  pendingProductCode?: null;
  pendingSeats?: null;
  pendingAt?: null;
  recurringCampaign?: null;
};

/** The owned workspace's fields a paid period writes; null when it writes none. */
export type PaidWorkspace = {
  productCode?: string;
  maxSeats?: number;
  licensePricingStructure?: string;
} | null;

export function paidPeriodChanges(
  catalog: Pick<Catalog, "plans">,
  period: PaidPeriod,
): { subscription: PaidSubscription; workspace: PaidWorkspace } {
  const plan = catalog.plans.find((p) => p.code === period.productCode);
  const subscription: PaidSubscription = {
    productCode: period.productCode,
    orderId: period.orderId,
    orderStart: period.periodStart,
    orderEnd: period.periodEnd,
    termMonths: period.termMonths,
    seats: period.seats,
    paidCents: period.paidCents,
    periodAnchor: period.anchor,
    periodIndex: period.index,
    ...(period.basis === undefined ? {} : { priceBasis: period.basis }),
    // The change scheduled for this period end is now the subscription itself; a recurring
    // campaign of the old product does not follow it into the new one.
    ...(period.scheduledChange
      ? { pendingProductCode: null, pendingSeats: null, pendingAt: null, recurringCampaign: null }
      : {}),
  };
  if (!plan?.multiUser) return { subscription, workspace: null };
  const structure = period.basis?.seatStructure?.id;
  const workspace = {
    // The team may use the product and seats the period paid for (decision 0027: the step never
    // renews fewer seats than the team holds).
    ...(period.scheduledChange ? { productCode: period.productCode, maxSeats: period.seats } : {}),
    // The workspace reports the seat structure it is priced by (a migration may have moved it).
    ...(structure === undefined ? {} : { licensePricingStructure: structure }),
  };
  return { subscription, workspace: Object.keys(workspace).length > 0 ? workspace : null };
}
