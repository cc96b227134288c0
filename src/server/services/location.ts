import { US_STATES } from "../../domain/checkout/regions.ts";

// Where an account is, for tax and the GDPR flag: the billing address when one is saved,
// otherwise the United States with no state (the spec's default region for a new session).

// EU and EEA members, plus the United Kingdom and Switzerland, whose privacy rules match the GDPR.
const GDPR_COUNTRIES = new Set(
  "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO GB CH".split(
    " ",
  ),
);

export type Location = { countryCode: string; stateCode: string | null; stateName: string | null };

const DEFAULT_COUNTRY = "US";

export function locationOf(
  user: { country: string | null; stateCode: string | null } | null,
): Location {
  const countryCode = user?.country ?? DEFAULT_COUNTRY;
  const stateCode = countryCode === "US" ? (user?.stateCode ?? null) : null;
  return { countryCode, stateCode, stateName: stateCode ? (US_STATES[stateCode] ?? null) : null };
}

export function isGdprCountry(countryCode: string): boolean {
  return GDPR_COUNTRIES.has(countryCode.toUpperCase());
}

export function isUsState(code: string): boolean {
  return Object.hasOwn(US_STATES, code);
}
