// Which US state a ZIP code belongs to (issue 33, item 6): the first three digits of a ZIP code
// (its sectional centre) name one state, so a billing address whose state disagrees with its ZIP
// is refused rather than taxed at the wrong state's rate. The ranges follow the USPS's
// assignment of three-digit prefixes; a prefix outside them (000-004, the armed forces' 090-099,
// 340, 962-966, Puerto Rico and the other territories) names no state of the list.

/** [first prefix, last prefix, state] in ascending order; the gaps name no state. */
const RANGES: readonly (readonly [number, number, string])[] = [
  [5, 5, "NY"],
  [10, 27, "MA"],
  [28, 29, "RI"],
  [30, 38, "NH"],
  [39, 49, "ME"],
  [50, 54, "VT"],
  [55, 55, "MA"],
  [56, 59, "VT"],
  [60, 69, "CT"],
  [70, 89, "NJ"],
  [100, 149, "NY"],
  [150, 196, "PA"],
  [197, 199, "DE"],
  [200, 200, "DC"],
  [201, 201, "VA"],
  [202, 205, "DC"],
  [206, 219, "MD"],
  [220, 246, "VA"],
  [247, 268, "WV"],
  [270, 289, "NC"],
  [290, 299, "SC"],
  [300, 319, "GA"],
  [320, 339, "FL"],
  [341, 349, "FL"],
  [350, 369, "AL"],
  [370, 385, "TN"],
  [386, 397, "MS"],
  [398, 399, "GA"],
  [400, 427, "KY"],
  [430, 459, "OH"],
  [460, 479, "IN"],
  [480, 499, "MI"],
  [500, 528, "IA"],
  [530, 549, "WI"],
  [550, 567, "MN"],
  [569, 569, "DC"],
  [570, 577, "SD"],
  [580, 588, "ND"],
  [590, 599, "MT"],
  [600, 629, "IL"],
  [630, 658, "MO"],
  [660, 679, "KS"],
  [680, 693, "NE"],
  [700, 715, "LA"],
  [716, 729, "AR"],
  [730, 732, "OK"],
  [733, 733, "TX"],
  [734, 749, "OK"],
  [750, 799, "TX"],
  [800, 816, "CO"],
  [820, 831, "WY"],
  [832, 838, "ID"],
  [840, 847, "UT"],
  [850, 865, "AZ"],
  [870, 884, "NM"],
  [885, 885, "TX"],
  [889, 898, "NV"],
  [900, 961, "CA"],
  [967, 968, "HI"],
  [970, 979, "OR"],
  [980, 994, "WA"],
  [995, 999, "AK"],
];

/** The state a US ZIP code ("94103", "94103-1234") belongs to; null when none is known. */
export function stateOfZip(zip: string): string | null {
  const match = /^(\d{3})\d{2}(-\d{4})?$/.exec(zip.trim());
  if (!match) return null;
  const prefix = Number(match[1]);
  for (const [first, last, state] of RANGES) {
    if (prefix < first) return null;
    if (prefix <= last) return state;
  }
  return null;
}

/** Said beside the State field of a US address left on "Choose…" (the server says the same). */
const US_STATE_MISSING = "Choose your state: it decides the sales tax of a US address.";

/** What the pay button says beside an empty State (or region) field of `country`'s address. */
export function stateMissingProblem(country: string): string {
  return country === "US" ? US_STATE_MISSING : "Choose your state or region.";
}

export type UsAddressProblem = { field: "state" | "postalCode"; message: string };

/**
 * What is wrong with a US billing address's state and ZIP, as a field problem, or null: a US
 * address needs its state (it decides the sales tax), and a ZIP given must be one of that state.
 * `stateName` names a state code in the words the person chose it by.
 */
export function usAddressProblem(
  address: { state?: string | null | undefined; postalCode?: string | null | undefined },
  stateName: (code: string) => string,
): UsAddressProblem | null {
  const state = address.state?.trim().toUpperCase() || null;
  if (state === null) {
    return { field: "state", message: US_STATE_MISSING };
  }
  const zip = address.postalCode?.trim() || null;
  if (zip === null) return null;
  const zipState = stateOfZip(zip);
  if (zipState === null) {
    return {
      field: "postalCode",
      message: "Enter the 5-digit ZIP code of a US address, such as 10001.",
    };
  }
  if (zipState !== state) {
    return {
      field: "state",
      message: `ZIP code ${zip} is in ${stateName(zipState)}, not ${stateName(state)}. Check the state or the ZIP code.`,
    };
  }
  return null;
}
