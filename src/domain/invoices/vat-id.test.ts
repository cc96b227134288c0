import { describe, expect, it } from "vitest";
import { checkEuVatId, classifyTaxId } from "./vat-id.ts";

// One registered id of each member state (public examples used by VAT tools), with its country.
const VALID: [string, string][] = [
  ["ATU13585627", "AT"],
  ["BE0411905847", "BE"],
  ["BG175074752", "BG"],
  ["CY10259033P", "CY"],
  ["CZ25123891", "CZ"],
  ["DE136695976", "DE"],
  ["DK13585628", "DK"],
  ["EE100931558", "EE"],
  ["EL094259216", "GR"],
  ["ESA28015865", "ES"],
  ["FI20774740", "FI"],
  ["FR40303265045", "FR"],
  ["HR33392005961", "HR"],
  ["HU12892312", "HU"],
  ["IE6388047V", "IE"],
  ["IT00743110157", "IT"],
  ["LT119511515", "LT"],
  ["LU15027442", "LU"],
  ["LV40003521600", "LV"],
  ["MT11679112", "MT"],
  ["NL004495445B01", "NL"],
  ["PL8567346215", "PL"],
  ["PT501964843", "PT"],
  ["RO18547290", "RO"],
  ["SE556188840401", "SE"],
  ["SI50223054", "SI"],
  ["SK2022749619", "SK"],
];

/** The id with the third digit of its number changed (every state's check digits cover it). */
function mistyped(id: string): string {
  const digits = [...id.matchAll(/\d/g)];
  const at = digits[2]?.index ?? 0;
  const digit = Number(id[at]);
  return `${id.slice(0, at)}${(digit + 1) % 10}${id.slice(at + 1)}`;
}

describe("EU VAT ids: format and check digits of each member state", () => {
  it("covers the 27 member states", () => {
    expect(new Set(VALID.map(([, c]) => c)).size).toBe(27);
  });

  it.each(VALID)("%s is a valid id of %s", (id, country) => {
    expect(checkEuVatId(id)).toEqual({ ok: true, vatId: id, country });
  });

  it.each(VALID)("%s with one digit mistyped fails its check digits", (id) => {
    const result = checkEuVatId(mistyped(id));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toBe("check_digits");
  });

  it.each([
    ["de 136.695.976", "DE136695976"],
    ["fr-40 303 265 045", "FR40303265045"],
    ["el094259216", "EL094259216"],
  ])("reads %j as %s (spaces, dots, dashes, lower case)", (typed, id) => {
    expect(checkEuVatId(typed)).toMatchObject({ ok: true, vatId: id });
  });

  it.each([
    ["DE13669597", "format"], // 8 digits, Germany has 9
    ["FR4030326504", "format"],
    ["NL004495445A01", "format"],
    ["IT0074311015", "format"],
    ["GR094259216", "format"], // Greece's prefix is EL
    ["GB123456789", "not_eu"],
    ["US123456789", "not_eu"],
    ["123456789", "not_eu"],
    ["", "not_eu"],
  ])("refuses %j (%s)", (id, reason) => {
    const result = checkEuVatId(id);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toBe(reason);
  });

  it("says what is wrong in words a buyer understands", () => {
    expect(checkEuVatId("DE136695977")).toMatchInlineSnapshot(`
      {
        "message": "DE136695977 is not a valid VAT id of Germany: its check digits do not match (a typing mistake?).",
        "ok": false,
        "reason": "check_digits",
      }
    `);
    expect(checkEuVatId("DE1366959")).toMatchInlineSnapshot(`
      {
        "message": "DE1366959 does not have the format of a VAT id of Germany.",
        "ok": false,
        "reason": "format",
      }
    `);
  });
});

describe("tax ids at checkout", () => {
  it.each([
    // typed, billing country, result
    ["DE136695976", "DE", { ok: true, taxId: "DE136695976", country: "DE", euVat: true }],
    ["DE136695976", "US", { ok: true, taxId: "DE136695976", country: "DE", euVat: true }],
    ["12-3456789", "US", { ok: true, taxId: "12-3456789", country: "US", euVat: false }],
    ["974 760 673", "NO", { ok: true, taxId: "974 760 673", country: "NO", euVat: false }],
  ] as const)("%s billed in %s", (typed, country, expected) => {
    expect(classifyTaxId(typed, country)).toEqual(expected);
  });

  it.each([
    ["12-3456789", "DE"], // billed in the EU: only an EU VAT id is a tax id there
    ["DE136695977", "US"], // an EU prefix must be a valid EU id wherever it is billed
    ["<script>", "US"],
  ])("refuses %j billed in %s", (typed, country) => {
    expect(classifyTaxId(typed, country).ok).toBe(false);
  });
});
