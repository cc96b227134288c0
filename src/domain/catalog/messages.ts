// The catalogue of every problem `catalog validate` can report. Codes are permanent (scripts and
// docs may rely on them); wordings say what was found and what was expected, then what to do.
// No "Error:" prefixes: the CLI prints `file:line path: message`. Tests pin the exact wordings.

export type Problem = { code: string; message: string; hint?: string };

/** 5988 → "59.88": amounts in messages read as they are written in the YAML files. */
export const dollars = (cents: number): string => (cents / 100).toFixed(2);
const date = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");
const list = (items: readonly string[]): string => items.join(", ");
const quoted = (items: readonly unknown[]): string =>
  items.map((v) => JSON.stringify(v)).join(", ");
const range = (band: { from: number; to: number }) => `${band.from}-${band.to}`;
/** "seat 31 has" or "seats 31-34 have". */
const seats = (from: number, to: number, verb: [string, string]) =>
  from === to ? `seat ${from} ${verb[0]}` : `seats ${from}-${to} ${verb[1]}`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const messages = {
  // Reading the files.
  yamlSyntax: (detail: string): Problem => ({
    code: "yaml-syntax",
    message: `is not valid YAML: ${detail}`,
    hint: "Check the indentation, colons and quotes on this line and the one before.",
  }),
  unknownFile: (expected: readonly string[], suggestion?: string): Problem => ({
    code: "unknown-file",
    message:
      `is not a catalogue file: expected plans/<family>.yaml or one of ${list(expected)}` +
      (suggestion ? `: did you mean ${suggestion}?` : ""),
    hint: "Rename the file, or move it out of catalog/ (only README.md and schema/ may sit beside the data).",
  }),
  missingFile: (): Problem => ({
    code: "missing-file",
    message: "is missing: every catalogue has this file",
  }),
  noPlanFamilies: (): Problem => ({
    code: "missing-file",
    message: "has no plan families: expected at least one file plans/<family>.yaml",
  }),

  // Shape of one file (zod schema issues, reworded in schema-issues.ts).
  unknownKey: (key: string, suggestion: string | undefined, known: readonly string[]): Problem => ({
    code: "unknown-key",
    message: suggestion
      ? `unknown key "${key}": did you mean "${suggestion}"?`
      : `unknown key "${key}"`,
    hint: `Keys allowed here: ${list(known)}.`,
  }),
  missingField: (expected: string, description: string | undefined): Problem => ({
    code: "missing-field",
    message: `is missing: expected ${expected}`,
    ...(description ? { hint: description } : {}),
  }),
  wrongType: (expected: string, found: string): Problem => ({
    code: "wrong-type",
    message: `expected ${expected}, found ${found}`,
  }),
  notAllowed: (allowed: readonly unknown[], found: string, suggestion?: unknown): Problem => ({
    code: "not-allowed",
    message:
      `expected one of ${quoted(allowed)}, found ${found}` +
      (suggestion === undefined ? "" : `: did you mean ${JSON.stringify(suggestion)}?`),
  }),
  outOfRange: (expected: string, found: string): Problem => ({
    code: "out-of-range",
    message: `expected ${expected}, found ${found}`,
  }),
  badValue: (rule: string, found: string): Problem => ({
    code: "bad-value",
    message: `${rule}, found ${found}`,
  }),

  // Seat bands (seat-bands.yaml).
  bandReversed: (band: { from: number; to: number }): Problem => ({
    code: "seat-band-reversed",
    message: `band starts at ${band.from} seats but ends at ${band.to}: expected from ≤ to`,
  }),
  bandStart: (from: number): Problem => ({
    code: "seat-band-start",
    message: `the first band starts at ${from} seats: expected 1`,
    hint: "Bands cover every seat count from 1 upwards; minimumSeats says how few can be ordered.",
  }),
  bandGap: (from: number, previousTo: number): Problem => ({
    code: "seat-band-gap",
    message: `band starts at ${from} seats but the band before ends at ${previousTo}: expected ${previousTo + 1} (${seats(previousTo + 1, from - 1, ["has", "have"])} no price)`,
  }),
  bandOverlap: (from: number, previousTo: number): Problem => ({
    code: "seat-band-overlap",
    message: `band starts at ${from} seats but the band before ends at ${previousTo}: expected ${previousTo + 1} (${seats(from, previousTo, ["is", "are"])} in two bands)`,
  }),
  bandPriceBoth: (band: { from: number; to: number }): Problem => ({
    code: "seat-band-price",
    message: `band ${range(band)} has both total and perSeat: expected exactly one`,
    hint: "total is the order total for any seat count in the band; perSeat prices each seat in the band on top of the band before.",
  }),
  bandPriceNone: (band: { from: number; to: number }): Problem => ({
    code: "seat-band-price",
    message: `band ${range(band)} has neither total nor perSeat: expected exactly one`,
    hint: "total is the order total for any seat count in the band; perSeat prices each seat in the band on top of the band before.",
  }),
  bandTotalFalls: (
    band: { from: number; to: number },
    total: number,
    previousTotal: number,
    previousTo: number,
  ): Problem => ({
    code: "seat-band-total-falls",
    message: `band ${range(band)} totals ${dollars(total)} for ${band.from} seats, less than ${dollars(previousTotal)} for ${previousTo} seats in the band before: expected the total never to fall as seats rise`,
  }),
  minimumOutside: (minimum: number, from: number, to: number): Problem => ({
    code: "seat-minimum-outside",
    message: `minimumSeats is ${minimum} but the bands cover ${from}-${to} seats: expected a seat count within the bands`,
  }),
  noDefaultStructure: (code: string, structures: readonly string[]): Problem => ({
    code: "seat-structure-default",
    message: `${code} is priced by seat structures ${list(structures)}, none of them default: expected exactly one with default: true`,
  }),
  manyDefaultStructures: (code: string, structures: readonly string[]): Problem => ({
    code: "seat-structure-default",
    message: `${code} has ${structures.length} default seat structures (${list(structures)}): expected exactly one with default: true`,
  }),
  unknownStructure: (id: string, known: readonly string[], suggestion?: string): Problem => ({
    code: "seat-structure-unknown",
    message:
      `seat structure "${id}" is not defined in seat-bands.yaml` +
      (suggestion ? `: did you mean "${suggestion}"?` : ""),
    hint:
      known.length > 0
        ? `Structures defined: ${list(known)}.`
        : "seat-bands.yaml defines no structures.",
  }),
  structureNotApplying: (id: string, code: string): Problem => ({
    code: "seat-structure-unknown",
    message: `seat structure "${id}" does not list ${code} in appliesTo: expected the structure to apply to this plan`,
  }),

  // Product codes named anywhere.
  unknownPlan: (code: string, suggestion: string | undefined): Problem => ({
    code: "unknown-plan",
    message:
      `plan code ${code} is not defined in catalog/plans/` +
      (suggestion ? `: did you mean ${suggestion}?` : ""),
  }),
  duplicateCode: (code: string, firstUse: string): Problem => ({
    code: "duplicate-code",
    message: `code ${code} is already used by ${firstUse}: expected every product code to be unique`,
  }),
  migrationProductNotRecurring: (code: string): Problem => ({
    code: "migration-product-not-recurring",
    message: `plan ${code} does not renew: expected a price migration to name plans that renew`,
    hint: "A one-time product has no renewals to move; remove it from products.",
  }),
  migrationStructureNotForProducts: (id: string, products: readonly string[]): Problem => ({
    code: "migration-structure-not-for-products",
    message: `seat structure ${id} prices none of ${list(products)}: expected a structure that applies to one of the migration's products`,
  }),
  migrationBeforeSignUp: (renewalsFrom: number, signedUpBefore: number): Problem => ({
    code: "migration-before-sign-up",
    message: `renewalsFrom ${date(renewalsFrom)} is before signedUpBefore ${date(signedUpBefore)}: expected the move to come after the cohort signed up`,
  }),
  duplicateId: (what: string, id: string): Problem => ({
    code: "duplicate-id",
    message: `${what} id ${id} is already used: expected every ${what} id to be unique`,
  }),
  unknownPriceSet: (id: string, known: readonly string[], suggestion?: string): Problem => ({
    code: "price-set-unknown",
    message:
      `price set "${id}" is not defined in price-tests.yaml` +
      (suggestion ? `: did you mean "${suggestion}"?` : ""),
    hint:
      known.length > 0
        ? `Price sets defined: ${list(known)}.`
        : "price-tests.yaml defines no price sets.",
  }),
  unknownTrial: (code: string, suggestion: string | undefined): Problem => ({
    code: "trial-unknown",
    message:
      `trial product ${code} is not defined in catalog/plans/` +
      (suggestion ? `: did you mean ${suggestion}?` : ""),
  }),
  trialNotTrial: (code: string): Problem => ({
    code: "trial-unknown",
    message: `trial product ${code} is not a trial: expected a plan family with isTrial: true`,
  }),

  // Campaigns (campaigns.yaml).
  campaignNotLower: (code: string, campaignPrice: number, price: number): Problem => ({
    code: "campaign-price-not-lower",
    message: `campaign price ${dollars(campaignPrice)} for ${code} is not below its price ${dollars(price)}: expected a lower price`,
  }),
  campaignWindowEmpty: (from: number, to: number): Problem => ({
    code: "campaign-window-empty",
    message: `validFrom ${date(from)} is not before validTo ${date(to)}: expected the window to start before it ends`,
  }),
  couponOverlap: (coupon: string, other: string, from: number, to: number): Problem => ({
    code: "coupon-overlap",
    message: `coupon ${coupon} is also used by campaign ${other}, whose window overlaps this one from ${date(from)} to ${date(to)}: expected one campaign per coupon at any time`,
  }),
  bannerDuplicate: (id: string, other: string): Problem => ({
    code: "banner-id-duplicate",
    message: `banner id ${id} is already used in campaign ${other}: expected every banner id to be unique`,
  }),

  // Essentials (plans and essentials.yaml).
  essentialsAddOnMissing: (): Problem => ({
    code: "essentials-add-on",
    message:
      "essentials is true but essentialsAddOn is missing: expected the code of the add-on included",
  }),
  essentialsAddOnUnexpected: (addOn: string): Problem => ({
    code: "essentials-add-on",
    message: `essentialsAddOn is ${addOn} but essentials is false: expected essentials: true, or no essentialsAddOn`,
  }),
  essentialsAddOnUnknown: (
    addOn: string,
    known: readonly string[],
    suggestion?: string,
  ): Problem => ({
    code: "essentials-add-on",
    message:
      `essentials add-on ${addOn} is not defined in essentials.yaml` +
      (suggestion ? `: did you mean ${suggestion}?` : ""),
    hint: `Add-ons defined: ${list(known)}.`,
  }),
  essentialsAddOnTerm: (addOn: string, addOnTerm: number, planTerm: number): Problem => ({
    code: "essentials-add-on",
    message: `essentials add-on ${addOn} is a ${addOnTerm}-month add-on but this plan has a ${planTerm}-month term: expected the add-on of the same term`,
  }),
  essentialsLinkUnknown: (
    field: string,
    code: string,
    suggestion: string | undefined,
  ): Problem => ({
    code: "essentials-link",
    message:
      `${field} ${code} is not defined in catalog/plans/` +
      (suggestion ? `: did you mean ${suggestion}?` : ""),
  }),
  essentialsLinkOneWay: (
    field: string,
    target: string,
    back: string,
    found: string | null,
    expected: string,
  ): Problem => ({
    code: "essentials-link",
    message: `${field} is ${target}, whose ${back} is ${found ?? "missing"}: expected ${expected}`,
    hint: "The plan with essentials and the plan without link to each other.",
  }),
  essentialsLinkFlag: (field: string, target: string, expected: boolean): Problem => ({
    code: "essentials-link",
    message: `${field} ${target} has essentials: ${!expected}: expected a plan ${expected ? "with" : "without"} essentials`,
  }),
  essentialsPrice: (
    price: number,
    base: string,
    basePrice: number,
    addOn: string,
    addOnPrice: number,
    priceSet: string | null,
  ): Problem => ({
    code: "essentials-price",
    message: `price${priceSet ? ` in price set ${priceSet}` : ""} is ${dollars(price)} but ${base} (${dollars(basePrice)}) plus add-on ${addOn} (${dollars(addOnPrice)}) is ${dollars(basePrice + addOnPrice)}: expected ${dollars(basePrice + addOnPrice)}`,
  }),

  // Prices across terms.
  annualAboveMonthly: (
    code: string,
    term: number,
    price: number,
    monthly: string,
    monthlyPrice: number,
    priceSet: string | null,
  ): Problem => ({
    code: "annual-above-monthly",
    message: `${code}${priceSet ? ` in price set ${priceSet}` : ""} costs ${dollars(price)} for ${term} months, more a month than ${monthly} at ${dollars(monthlyPrice)}: expected at most ${dollars(monthlyPrice * term)} for ${term} months`,
  }),

  // Experiments (the experiments of price-tests.yaml).
  experimentSharesNot100: (total: number): Problem => ({
    code: "experiment-shares",
    message: `the groups' shares add up to ${total}: expected 100`,
    hint: "Each share is the percent of enrolled visitors a group gets.",
  }),
  experimentGroupUnknown: (set: string, suggestion: string | undefined): Problem => ({
    code: "experiment-group-unknown",
    message:
      `group ${set} is neither control nor a price set of price-tests.yaml` +
      (suggestion ? `: did you mean ${suggestion}?` : ""),
  }),
  experimentGroupTwice: (set: string): Problem => ({
    code: "experiment-group-twice",
    message: `group ${set} is listed twice: expected each group once, with its whole share`,
  }),
  experimentNoChallenger: (): Problem => ({
    code: "experiment-no-price-set",
    message: "has no group with a price set: expected control and at least one price set",
  }),
  experimentSetPricesNoPlan: (set: string, plans: readonly string[]): Problem => ({
    code: "experiment-set-prices-no-plan",
    message: `price set ${set} has no priceTests entry for any of the experiment's plans (${list(plans)}): its group would see the control prices`,
    hint: `Give one of those plan variants a priceTests.${set} price, or choose another set.`,
  }),
  experimentWindowEmpty: (from: number, to: number): Problem => ({
    code: "experiment-window-empty",
    message: `from ${date(from)} is not before to ${date(to)}: expected the window to start before it ends`,
  }),
  experimentOverlap: (code: string, other: string, from: number, to: number): Problem => ({
    code: "experiment-overlap",
    message: `plan ${code} is also priced by experiment ${other}, whose window overlaps this one from ${date(from)} to ${date(to)}: expected one experiment per plan at any time`,
  }),

  // Warnings: the catalogue builds, but something looks unintended.
  priceSetUnused: (id: string): Problem => ({
    code: "price-set-unused",
    message: `price set "${id}" is not used by any plan's priceTests`,
  }),
  essentialsAddOnUnused: (code: string): Problem => ({
    code: "essentials-add-on-unused",
    message: `essentials add-on ${code} is not included in any plan`,
  }),

  // When the shape of some files is wrong, the checks across files wait.
  crossChecksSkipped: (files: number): Problem => ({
    code: "cross-checks-skipped",
    message: `checks across files (links, prices, seat bands, campaigns) were skipped because ${plural(files, "file")} ${files === 1 ? "has" : "have"} problems: fix them and run again`,
  }),
} as const;
