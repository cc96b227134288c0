// The next renewal of a subscription, as one number (issue 33, item 9): its date, the amount it
// charges (tax included, by renewalCharge, so the pricing module's figures) and whether tax is in
// it. Every place that names the next renewal (the products call's nextBillingAmount, the order
// summary's `renewal`, the completed and account pages, the renewal e-mails) takes it from here,
// and says it with renewalWords (renewal-words.ts, small enough for the browser's first chunk), so no screen shows a before-tax figure where another shows one
// with tax. A one-time product (Flex) has no next renewal: it is valid until a date.
import type { Catalog } from "../catalog/catalog-schema.ts";
import type { PriceChoice } from "../experiments/price-choice.ts";
import type { TaxLocation } from "../pricing/index.ts";
import { renewalCharge } from "./charge.ts";
import type { PriceBasis } from "./price-basis.ts";

export type NextRenewalFacts = {
  productCode: string;
  orderState: string;
  seats: number;
  /** End of the paid period: the renewal date. */
  orderEnd: number | null;
  /** A change scheduled for the period end (a downgrade, Essentials cancelled), or null. */
  pendingProductCode: string | null;
  pendingSeats: number | null;
  priceChoice?: PriceChoice | undefined;
  recurringCampaign: string | null;
  priceBasis: PriceBasis | null;
  /** Where the renewal is taxed (the invoices' rule); null under reverse charge. */
  tax: TaxLocation | null;
};

export type NextRenewal = {
  /** When it is charged. */
  at: number;
  productCode: string;
  seats: number;
  /** What it charges, tax included (cents). */
  amount: number;
  /** The tax inside `amount` (0 when none is charged). */
  tax: number;
  termMonths: number;
};

/** The next renewal, priced as the renewal worker will price it; null when nothing renews. */
export function nextRenewal(catalog: Catalog, facts: NextRenewalFacts): NextRenewal | null {
  if (facts.orderState !== "automatic" || facts.orderEnd === null) return null;
  const running = catalog.plans.find((p) => p.code === facts.productCode);
  // A one-time product ends at the end of its validity (schedule.ts): nothing renews.
  if (running !== undefined && !running.recurring) return null;
  const scheduled = facts.pendingProductCode !== null;
  const priced = renewalCharge(
    catalog,
    {
      productCode: facts.pendingProductCode ?? facts.productCode,
      seats: scheduled ? (facts.pendingSeats ?? facts.seats) : facts.seats,
      priceChoice: facts.priceChoice,
      recurringCampaign: scheduled ? null : facts.recurringCampaign,
      tax: facts.tax,
      // As the renewal worker prices it (services/paid-renewal.ts): the recorded prices, which
      // renewalPrice sets aside for another product.
      basis: facts.priceBasis,
      periodStart: facts.orderEnd,
    },
    facts.orderEnd,
  );
  if (!priced.ok) return null;
  const { charge } = priced;
  return {
    at: facts.orderEnd,
    productCode: charge.productCode,
    seats: charge.seats,
    amount: charge.total,
    tax: charge.salesTax,
    termMonths: charge.termMonths,
  };
}

/** How long before a one-time product (Flex) runs out its holder is reminded (issue 33, item 7). */
export const ONE_TIME_REMINDER_DAYS = 14;
