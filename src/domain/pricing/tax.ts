// Sales tax: one combined rate per country, or per US state, from catalog.taxRates.
import type { Catalog } from "../catalog/catalog-schema.ts";
import { mulDivRoundHalfUp } from "./money.ts";

export type TaxLocation = { country: string; state?: string | null | undefined };

// EU membership decides what the tax line is called here and, in the invoices' tax-treatment.ts
// and vat-id.ts, whether a sale is reverse-charged: pricing holds it, as invoices build on pricing.
/** The 27 member states, by their ISO 3166 codes (Greece is GR here; its VAT ids say EL). */
export const EU_COUNTRIES: ReadonlySet<string> = new Set(
  "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split(" "),
);

export function isEuCountry(country: string): boolean {
  return EU_COUNTRIES.has(country.trim().toUpperCase());
}

/** Combined rate in percent: the state's row first, then the country's own row, else 0. */
export function taxRatePercent(catalog: Pick<Catalog, "taxRates">, location: TaxLocation): number {
  const country = location.country.trim().toUpperCase();
  const state = location.state?.trim().toUpperCase() || null;
  const rows = catalog.taxRates.filter((row) => row.country.toUpperCase() === country);
  const stateRow =
    state === null ? undefined : rows.find((row) => row.state?.toUpperCase() === state);
  return (stateRow ?? rows.find((row) => row.state === null))?.ratePercent ?? 0;
}

// Rates are kept to 1/10,000 of a percent (8.875% → 88,750), so the tax is computed exactly.
const RATE_SCALE = 10_000;

/** amount × rate / 100, rounded half up to the cent (1000 at 8.875% → 89). */
export function taxAmount(amountCents: number, ratePercent: number): number {
  if (!Number.isFinite(ratePercent) || ratePercent < 0) {
    throw new RangeError(`A tax rate must be a percentage of at least 0; got ${ratePercent}.`);
  }
  return mulDivRoundHalfUp(amountCents, Math.round(ratePercent * RATE_SCALE), 100 * RATE_SCALE);
}

// What the tax line is called where the buyer is billed (issue 33, item 6): VAT in the EU and
// the European countries that charge it, GST where the country calls it so, sales tax in the US.
const VAT_OUTSIDE_EU = new Set(["GB", "NO", "CH", "IS", "LI"]);
const GST_COUNTRIES = new Set(["AU", "NZ", "CA", "SG", "IN", "MY"]);

/** "Sales tax", "VAT", "GST", "Consumption tax" (Japan), or "Tax" for a country not listed. */
export function taxName(country: string): string {
  const code = country.trim().toUpperCase();
  if (code === "US") return "Sales tax";
  if (isEuCountry(code) || VAT_OUTSIDE_EU.has(code)) return "VAT";
  if (GST_COUNTRIES.has(code)) return "GST";
  if (code === "JP") return "Consumption tax";
  return "Tax";
}
