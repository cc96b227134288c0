import { describe, expect, it } from "vitest";
import { chargedTaxLocation, REVERSE_CHARGE_MENTION, taxTreatment } from "./tax-treatment.ts";

const valid = (country: string) => ({ country, valid: true });
const invalid = (country: string) => ({ country, valid: false });

describe("reverse charge", () => {
  it.each([
    // seller, buyer country, VAT id, treatment
    ["IE", "DE", valid("DE"), "reverse_charge"], // a German company buying from Ireland
    ["IE", "FR", valid("FR"), "reverse_charge"],
    ["IE", "GR", valid("GR"), "reverse_charge"], // Greece: country GR (its ids say EL; vat-id.ts maps)
    ["DE", "AT", valid("AT"), "reverse_charge"],
    ["IE", "IE", valid("IE"), "standard"], // same country as the seller: domestic VAT
    ["IE", "DE", invalid("DE"), "standard"], // an id that fails its check digits
    ["IE", "DE", null, "standard"], // a private person, or a business without an id
    ["IE", "DE", valid("FR"), "standard"], // an id of another country than the one billed
    ["IE", "GB", valid("GB"), "standard"], // not in the EU
    ["IE", "NO", valid("NO"), "standard"],
    ["IE", "US", null, "standard"], // a US business pays its state's sales tax
    ["US", "DE", valid("DE"), "standard"], // a seller outside the EU: no intra-EU reverse charge
    ["ie", " de ", valid("de"), "reverse_charge"], // codes in any case and spacing
  ] as const)("seller %s, buyer in %s with VAT id %j: %s", (seller, country, vatId, kind) => {
    const result = taxTreatment(seller, { country, vatId });
    expect(result.kind).toBe(kind);
    if (result.kind === "reverse_charge") expect(result.mention).toBe(REVERSE_CHARGE_MENTION);
  });
});

describe("where a charge is taxed", () => {
  it.each([
    // seller, buyer, tax location the pricing module is given
    ["IE", { country: "DE", state: null, vatId: valid("DE") }, null], // reverse charge: no tax
    ["IE", { country: "DE", state: null, vatId: null }, { country: "DE", state: null }],
    ["IE", { country: "IE", state: null, vatId: valid("IE") }, { country: "IE", state: null }],
    ["IE", { country: "US", state: "CA", vatId: null }, { country: "US", state: "CA" }],
    ["IE", { country: "FR", vatId: invalid("FR") }, { country: "FR", state: null }],
  ] as const)("seller %s, buyer %j: %j", (seller, buyer, location) => {
    expect(chargedTaxLocation(seller, buyer)).toEqual(location);
  });
});
