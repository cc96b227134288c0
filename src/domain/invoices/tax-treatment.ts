// Which VAT or sales-tax rule an invoice follows. The one rule of issue 23 item 3: an EU business
// buyer whose VAT id is valid and belongs to another EU country than the seller's pays no VAT
// (0 %); the buyer accounts for it ("reverse charge"), and the invoice must say so. Everyone else
// pays the rate of where they are (the catalogue's tax rates: the pricing module's tax.ts).
import { isEuCountry, type TaxLocation } from "../pricing/tax.ts";

/** The mention Article 226(11a) of the VAT directive asks of a reverse-charge invoice. */
export const REVERSE_CHARGE_MENTION =
  "Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).";

export type TaxBuyer = {
  /** The billing address's country (ISO 3166 alpha-2). */
  country: string;
  /** A VAT id the domain checked (vat-id.ts), with the country it belongs to; null for none. */
  vatId: { country: string; valid: boolean } | null;
};

export type TaxTreatment = { kind: "standard" } | { kind: "reverse_charge"; mention: string };

/** The rule for a sale by a seller established in `sellerCountry` to `buyer`. */
export function taxTreatment(sellerCountry: string, buyer: TaxBuyer): TaxTreatment {
  const seller = sellerCountry.trim().toUpperCase();
  const country = buyer.country.trim().toUpperCase();
  const id = buyer.vatId;
  if (
    isEuCountry(seller) &&
    isEuCountry(country) &&
    country !== seller &&
    id?.valid === true &&
    // The VAT id must be the one of the country billed: an id of the seller's own country (or of
    // a third one) is no evidence that the buyer is established where the service is supplied.
    id.country.toUpperCase() === country
  ) {
    return { kind: "reverse_charge", mention: REVERSE_CHARGE_MENTION };
  }
  return { kind: "standard" };
}

/**
 * Where a charge to `buyer` is taxed, as the pricing module takes it (`tax` of an order summary
 * or a renewal charge): the buyer's place, or null (no tax) under reverse charge. Every figure
 * that includes tax (the checkout's quote, the charge, a renewal, the account page's next
 * billing amount) asks this, so each agrees with the invoice's treatment (`taxTreatment`).
 */
export function chargedTaxLocation(
  sellerCountry: string,
  buyer: TaxBuyer & { state?: string | null },
): TaxLocation | null {
  if (taxTreatment(sellerCountry, buyer).kind === "reverse_charge") return null;
  return { country: buyer.country, state: buyer.state ?? null };
}
