// The checkout's choices and its purchase attempt. Choices: the plan (from the URL's product, so
// a reload or back keeps it), the seats and the coupon. An attempt is one Idempotency-Key for one
// request, kept in sessionStorage until the server settles it: a double click joins the running
// attempt, a reload during payment resumes it with the same key, and the server's account lock
// turns a second tab's purchase into 409 account_busy or already_subscribed, never a second
// charge. The total sent is the total shown (expectedTotal); on 409 price_changed the new summary
// is loaded and the person is asked again.
import { atom, computed, map } from "nanostores";
import type { ApiFailure } from "../client/client.ts";
import { minimumSeats, planFor } from "../domain/checkout/purchase.ts";
import type { RequestMode } from "../domain/pricing/terms.ts";
import {
  applyCoupon,
  loadOrderSummary,
  patchPayment,
  removeCoupon,
  verifyCoupon,
} from "./payment.ts";
import { $allPlans } from "./plans.ts";
import { $location, $query, navigate } from "./router.ts";

export type CheckoutState = {
  /** A purchase is running (this tab): the pay buttons are disabled. */
  paying: boolean;
  /** The server's price differed from the one shown: the new summary is on screen, ask again. */
  priceChanged: boolean;
  /** A payment attempt of an earlier page load is being finished. */
  resuming: boolean;
  /** The last failure of a payment step (card form, saving the card, the charge, PayPal). */
  failure: ApiFailure | null;
};

export const $checkout = map<CheckoutState>({
  paying: false,
  priceChanged: false,
  resuming: false,
  failure: null,
});

export function patch(fields: Partial<CheckoutState>): void {
  $checkout.set({ ...$checkout.get(), ...fields });
}

/** The plan in the URL, once the plans have loaded. */
export const $checkoutPlan = computed([$allPlans, $query], (plans, query) => {
  if (!plans || !query.productCode) return null;
  return plans.find((p) => p.code === query.productCode) ?? null;
});

/**
 * Seats to price: the URL's seats (chosen here, on the seat calculator or the additional-seats
 * screen, so a reload, back or sign-in keeps them), never below the plan's minimum; undefined for
 * one user.
 */
export const $seats = computed([$checkoutPlan, $location], (plan, location) => {
  const min = plan && minimumSeats(plan);
  if (!min) return undefined;
  const seats = Number(new URLSearchParams(location.search).get("seats"));
  return Number.isSafeInteger(seats) && seats > min ? seats : min;
});

/**
 * Why the seat count in the field cannot be priced (not a whole number, or below the plan's
 * minimum), or null. While it is set no summary is shown and nothing can be paid, so the summary
 * and the charge always follow the count on screen (issue 18, item 11).
 */
export const $seatsProblem = atom<string | null>(null);

export function summaryInput() {
  const plan = $checkoutPlan.get();
  const product = plan?.code ?? $query.get().productCode;
  if (!product) return null;
  const seats = $seats.get();
  return seats === undefined ? { targetProduct: product } : { targetProduct: product, seats };
}

/** Loads the order summary for the current choices (the server prices it). */
export async function refreshSummary(): Promise<void> {
  const input = summaryInput();
  if (!input) return;
  if (input.seats !== undefined && $seatsProblem.get() !== null) {
    loadOrderSummary.reset();
    patchPayment({ orderSummary: null, orderSummaryError: null });
    return;
  }
  await loadOrderSummary.run(input);
}

/**
 * The checkout's URL with one choice changed: the other parameters and the screen (checkout or
 * its summary form, whose input keeps focus) are kept.
 */
function setParam(key: "product" | "seats", value: string): void {
  const { pathname, search, hash } = $location.get();
  const params = new URLSearchParams(search);
  // "plan" is the other name of "product" (spec 2.4): one name from here on.
  params.set("product", $query.get().productCode ?? "");
  params.delete("plan");
  params.set(key, value);
  navigate(`${pathname}?${params}${hash}`, { replace: true });
}

/** Monthly or annual, and the essentials add-on: another product code in the URL. */
export function choosePlan(choice: { mode?: RequestMode; essentials?: boolean }): void {
  const plans = $allPlans.get();
  const plan = $checkoutPlan.get();
  if (!plans || !plan) return;
  const next = planFor(plans, plan, choice);
  if (next.code === plan.code) return;
  patch({ priceChanged: false, failure: null });
  setParam("product", next.code);
  void refreshSummary();
}

function chooseSeats(seats: number): void {
  if (!Number.isSafeInteger(seats) || seats < 1) return;
  $seatsProblem.set(null);
  patch({ priceChanged: false });
  setParam("seats", String(seats));
  void refreshSummary();
}

/**
 * What the person typed in the seats field: a whole number at or above the plan's minimum is
 * chosen (and priced); anything else takes the summary off the screen and says what to enter.
 */
export function enterSeats(text: string): void {
  const plan = $checkoutPlan.get();
  const min = plan && minimumSeats(plan);
  if (!min) return;
  const value = Number(text);
  if (text.trim() !== "" && Number.isSafeInteger(value) && value >= min) {
    chooseSeats(value);
    return;
  }
  $seatsProblem.set(`Enter a whole number of seats: at least ${min}.`);
  patch({ priceChanged: false });
  void refreshSummary();
}

/** Takes the applied coupon off the account, then prices again without it. */
export async function dropCoupon(): Promise<void> {
  const result = await removeCoupon.run();
  if (!result.ok) return;
  verifyCoupon.reset();
  applyCoupon.reset();
  await refreshSummary();
}

/** Coupon: verify first (what it is), then apply it to the account, then price again. */
export const checkCoupon = (code: string) => verifyCoupon.run(code.trim());
export async function redeemCoupon(code: string): Promise<void> {
  const result = await applyCoupon.run(code.trim());
  if (result.ok) await refreshSummary();
}

// ---- Where an attempt is kept: checkout-open.ts looks for one without loading the payment's
// module, checkout-payment.ts makes, finishes and clears it.

export const ATTEMPT_KEY = "checkout.attempt";

export function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}
