// The billing address as typed, for the card step: the card's ZIP or postal code is the address's
// (one field, not two: issue 22, item 7). Loaded with the checkout's payment chunks only.
import { atom } from "nanostores";

/** The ZIP or postal code in the billing address form ("" until one is typed). */
export const $billingPostalCode = atom("");

/** Why the payment step needs the address's code (set by the pay button, shown beside the field). */
export const $billingProblem = atom<string | null>(null);

let saving: Promise<unknown> = Promise.resolve();

/**
 * The address being saved and the summary priced again with it (AddressForm). Leaving the ZIP
 * field by pressing Pay starts a save: the pay button waits for it, then pays the total still on
 * screen or, when the save changed it (sales tax), shows the new one and asks again (issue 34).
 */
export function trackAddressSave(job: Promise<unknown>): void {
  // Joined, not replaced: a later blur that saves nothing must not hide a save still running.
  saving = Promise.all([saving, job.catch(() => {})]);
}

/** Settles once the address save running now (if any) and its new summary have finished. */
export const addressSettled = (): Promise<unknown> => saving;

/**
 * The billing address's country and the state or region chosen ("" for none), when the country
 * has a list of them (null otherwise): the pay button asks for a missing one (issue 33, item 6).
 */
export const $billingRegion = atom<{ country: string; state: string } | null>(null);

/** Why the payment step needs the address's state (set by the pay button, shown beside it). */
export const $billingStateProblem = atom<string | null>(null);
