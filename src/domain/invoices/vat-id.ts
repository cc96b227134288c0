// EU VAT ids, checked offline: each member state's format and check digits (jsvat-next, which
// implements every state's published algorithm). Whether the id is registered and active is for
// VIES, the EU's online service, which a deployment should ask before it trusts an id for a
// reverse charge (README: "VAT ids"); this machine, and the tests, have no network.
import { type Country, checkVAT, countries } from "jsvat-next";
import { isEuCountry } from "../pricing/tax.ts";

/**
 * The 27 member states' rules (no OSS "EU" numbers, no non-member states): jsvat-next's countries
 * whose ISO 3166 code is one of tax-treatment.ts's member states, so the list is kept in one place.
 */
const MEMBER_STATES: readonly Country[] = countries.filter((state) => isEuCountry(state.codes[0]));

/** The prefix of a VAT id → the country (ISO 3166): Greece's ids say EL. */
const PREFIX_COUNTRY: Record<string, string> = { EL: "GR" };

export type VatIdCheck =
  | { ok: true; vatId: string; country: string }
  | { ok: false; reason: "not_eu" | "format" | "check_digits"; message: string };

/** Spaces, dots, dashes and slashes people type inside an id; upper case. */
function normaliseVatId(raw: string): string {
  return raw.toUpperCase().replace(/[\s.\-/]+/g, "");
}

export function checkEuVatId(raw: string): VatIdCheck {
  const vatId = normaliseVatId(raw);
  const prefix = vatId.slice(0, 2);
  const country = PREFIX_COUNTRY[prefix] ?? prefix;
  if (prefix === "GR") {
    return { ok: false, reason: "format", message: "Greek VAT ids start with EL, not GR." };
  }
  if (!/^[A-Z]{2}$/.test(prefix) || !isEuCountry(country)) {
    return {
      ok: false,
      reason: "not_eu",
      message: `"${vatId.slice(0, 2)}" is not the prefix of an EU VAT id.`,
    };
  }
  const result = checkVAT(vatId, MEMBER_STATES);
  if (!result.isValidFormat) {
    return {
      ok: false,
      reason: "format",
      message: `${vatId} does not have the format of a VAT id of ${result.country?.name ?? country}.`,
    };
  }
  if (!result.isValid) {
    return {
      ok: false,
      reason: "check_digits",
      message: `${vatId} is not a valid VAT id of ${result.country?.name ?? country}: its check digits do not match (a typing mistake?).`,
    };
  }
  return { ok: true, vatId, country };
}

export type TaxIdResult =
  | { ok: true; taxId: string; country: string; euVat: boolean }
  | { ok: false; message: string };

/**
 * A tax id typed at checkout or on the account page. For a buyer billed in the EU, or an id that
 * starts with an EU prefix, it must be a valid EU VAT id (the reverse charge depends on it). Any
 * other id (a US EIN, a Norwegian organisation number) is printed on the invoice as given.
 */
export function classifyTaxId(raw: string, billingCountry: string): TaxIdResult {
  const text = raw.trim();
  const compact = normaliseVatId(text);
  const prefix = compact.slice(0, 2);
  const looksEu =
    /^[A-Z]{2}/.test(prefix) && (isEuCountry(PREFIX_COUNTRY[prefix] ?? prefix) || prefix === "EL");
  if (isEuCountry(billingCountry) || looksEu) {
    const checked = checkEuVatId(compact);
    return checked.ok
      ? { ok: true, taxId: checked.vatId, country: checked.country, euVat: true }
      : { ok: false, message: checked.message };
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9 .\-/]{1,38}$/.test(text)) {
    return {
      ok: false,
      message: "A tax id has 2 to 40 letters, digits, spaces, dots, dashes or slashes.",
    };
  }
  return { ok: true, taxId: text, country: billingCountry.toUpperCase(), euVat: false };
}
