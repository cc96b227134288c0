// The PayPal plans a catalogue release needs before anyone buys: one per sold recurring plan and
// price set, at the plan's catalogue price for its smallest purchase, without a campaign and
// without sales tax (decision 0053). Each is the plan key a buyer of that plan gets from
// services/paypal-subscriptions.ts termsOf where no sales tax applies, so the plans made ahead
// are the ones the checkout asks for; a taxed price, a seat count that splits differently or a
// recurring campaign makes its own plan on first use, by the same path. A price changed in a
// release is a new key, hence a new plan; the old one stays for the subscribers who bought it.
// Pure: every amount comes from the renewal rules (the pricing module).
import type { Catalog } from "../catalog/catalog-schema.ts";
import { choiceOfGroup, NO_CHOICE, type PriceChoice } from "../experiments/price-choice.ts";
import { currentPriceBasis, renewalCharge } from "../renewals/index.ts";
import { type PaypalTerms, paypalTerms } from "./terms.ts";

/** The price choices the catalogue prices in: the default and each price set (experiments' too). */
function priceChoices(catalog: Pick<Catalog, "priceSets">): PriceChoice[] {
  return [NO_CHOICE, ...catalog.priceSets.map((set) => choiceOfGroup(set.id))];
}

/** The PayPal terms of each catalogue price at `atMs`, one per plan key, in catalogue order. */
export function catalogPaypalTerms(catalog: Catalog, atMs: number): PaypalTerms[] {
  const byKey = new Map<string, PaypalTerms>();
  for (const plan of catalog.plans) {
    // What the checkout sells through PayPal: recurring plans that cost something and are sold.
    if (!plan.recurring || plan.isTrial || plan.legacy || plan.price === 0) continue;
    const seats = Math.max(1, plan.minSeats);
    for (const priceChoice of priceChoices(catalog)) {
      const renewal = renewalCharge(
        catalog,
        {
          productCode: plan.code,
          seats,
          priceChoice,
          recurringCampaign: null,
          tax: null,
          basis: currentPriceBasis(catalog, plan.code, { priceChoice, atMs }),
          periodStart: atMs,
        },
        atMs,
      );
      if (!renewal.ok) continue;
      const terms = paypalTerms({
        productCode: plan.code,
        termMonths: renewal.charge.termMonths,
        seats,
        multiUser: plan.multiUser,
        firstTotalCents: renewal.charge.total,
        renewalTotalCents: renewal.charge.total,
      });
      if (!byKey.has(terms.planKey)) byKey.set(terms.planKey, terms);
    }
  }
  return [...byKey.values()];
}
