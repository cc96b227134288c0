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
import { hrefFor } from "../domain/checkout/screens.ts";
import type { RequestMode } from "../domain/pricing/terms.ts";
import { newIdempotencyKey } from "./api.ts";
import type { Tokenizer } from "./card-token.ts";
import { inHubFrame, postToHub } from "./hub.ts";
import { operation } from "./operation.ts";
import {
  $payment,
  applyCoupon,
  loadOrderSummary,
  patchPayment,
  pay,
  payWithPaypal,
  removeCoupon,
  savePaymentToken,
  verifyCoupon,
} from "./payment.ts";
import { $allPlans, forgetPlans, loadAllPlans } from "./plans.ts";
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

function patch(fields: Partial<CheckoutState>): void {
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

function summaryInput() {
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

/** Opens the checkout for the product in the URL: its plan, then its summary. */
export async function openCheckout(): Promise<void> {
  patch({ priceChanged: false, failure: null });
  if (!$allPlans.get()) await loadAllPlans.run();
  await refreshSummary();
  await resumeAttempt();
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

export function chooseSeats(seats: number): void {
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

// ---- The attempt: one key per request, kept until the server settles it.

const ATTEMPT_KEY = "checkout.attempt";

type PurchaseRequest = {
  product: { code: string };
  seats?: number;
  expectedTotal: number;
};
type Attempt = { key: string; request: PurchaseRequest };

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

function readAttempt(): Attempt | null {
  const text = storage()?.getItem(ATTEMPT_KEY);
  if (!text) return null;
  try {
    const attempt = JSON.parse(text) as Attempt;
    return typeof attempt.key === "string" && attempt.request?.product?.code ? attempt : null;
  } catch {
    return null;
  }
}

function writeAttempt(attempt: Attempt | null): void {
  const store = storage();
  if (!store) return;
  if (attempt) store.setItem(ATTEMPT_KEY, JSON.stringify(attempt));
  else store.removeItem(ATTEMPT_KEY);
}

function attemptFor(request: PurchaseRequest): Attempt {
  const stored = readAttempt();
  if (stored && JSON.stringify(stored.request) === JSON.stringify(request)) return stored;
  const attempt = { key: newIdempotencyKey(), request };
  writeAttempt(attempt);
  return attempt;
}

function currentRequest(): PurchaseRequest | null {
  const summary = $payment.get().orderSummary;
  const input = summaryInput();
  if (!summary || !input || summary.productCode !== input.targetProduct) return null;
  const request: PurchaseRequest = {
    product: { code: summary.productCode },
    expectedTotal: summary.total,
  };
  if (input.seats !== undefined) request.seats = input.seats;
  return request;
}

/** Answers that are not final: payment-outcome.ts, loaded when one arrives. */
const notFinal = (error: ApiFailure) =>
  error.code === "authentication_required" || error.code === "payment_pending";

/**
 * A failure the server did not settle (no answer, or "your payment is being confirmed", or the
 * bank's step not done): the same key is tried again, so the payment it may have made is found
 * instead of a second one made (docs/decisions/0037).
 */
function unsettled(error: ApiFailure): boolean {
  return (
    error.kind === "timeout" ||
    error.kind === "network" ||
    error.code === "idempotency_key_in_progress" ||
    error.code === "account_busy" ||
    notFinal(error)
  );
}

async function charge(attempt: Attempt): Promise<void> {
  let result = await pay.run(attempt.request, attempt.key);
  // Another page load is still running this very attempt: wait for its answer.
  for (
    let i = 0;
    i < 10 && !result.ok && result.error.code === "idempotency_key_in_progress";
    i++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    result = await pay.run(attempt.request, attempt.key);
  }
  // The bank's step (3-D Secure), or "being confirmed": the same key again (decision 0037).
  if (!result.ok && notFinal(result.error)) {
    const { settlePayment } = await import("./payment-outcome.ts");
    result = await settlePayment(
      result,
      () => pay.run(attempt.request, attempt.key),
      (error) => patch({ failure: error }),
    );
  }
  if (result.ok) {
    writeAttempt(null);
    forgetPlans();
    postToHub("checkout_completed_success", {
      productCode: result.value.productCode,
      total: result.value.total,
      orderId: result.value.orderId,
    });
    navigate(hrefFor("payment-completed", undefined, { via: "hash" }));
    return;
  }
  const error = result.error;
  if (error.code === "price_changed") {
    writeAttempt(null);
    await refreshSummary();
    patch({ priceChanged: true, failure: null });
    return;
  }
  if (!unsettled(error)) {
    writeAttempt(null);
    postFailure(error);
  }
  patch({ failure: error });
}

function postFailure(error: ApiFailure): void {
  postToHub("checkout_completed_failure", { code: error.code ?? null, message: error.message });
}

let running = false;

async function exclusive(work: () => Promise<void>): Promise<void> {
  // A double click (or Enter pressed twice) joins the purchase that is already running.
  if (running) return;
  running = true;
  patch({ paying: true, failure: null, priceChanged: false });
  try {
    await work();
  } finally {
    running = false;
    patch({ paying: false, resuming: false });
  }
}

/**
 * Pays for the summary on screen by card: a new card (its provider's token, card-token.ts, saved
 * with /api/3/payment/token) or, with `newCard` null, the card the account has saved.
 */
export function payByCard(newCard: Tokenizer | null): Promise<void> {
  return exclusive(async () => {
    const request = currentRequest();
    if (!request) return;
    postToHub("payment_credit_card");
    if (newCard) {
      const token = await newCard();
      // Saving a card charges nothing: a fresh key each time is safe.
      const saveKey = newIdempotencyKey();
      let saved = token.ok ? await savePaymentToken.run(token.token, saveKey) : token;
      // A card whose bank asks to confirm it when saved: its step, then the same save again.
      if (token.ok && !saved.ok && notFinal(saved.error)) {
        const { settlePayment } = await import("./payment-outcome.ts");
        saved = await settlePayment(
          saved,
          () => savePaymentToken.run(token.token, saveKey),
          (error) => patch({ failure: error }),
        );
      }
      if (!saved.ok) {
        // The card was refused (declined, expired, wrong CVC): the payment that
        // payment_credit_card announced has settled, with a failure (spec 4). A call that got
        // no answer has not settled: nothing is posted for it.
        if (!unsettled(saved.error)) postFailure(saved.error);
        patch({ failure: saved.error });
        return;
      }
    }
    await charge(attemptFor(request));
  });
}

/** A reload during payment: the stored attempt for this product is finished with its key. */
async function resumeAttempt(): Promise<void> {
  const attempt = readAttempt();
  const input = summaryInput();
  if (!attempt || !input || attempt.request.product.code !== input.targetProduct) return;
  patch({ resuming: true });
  await exclusive(() => charge(attempt));
}

/**
 * PayPal: the server prices the order and answers the approval page to send the person to, or,
 * with `buttons` (PayPal's JS SDK buttons, stores/paypal-buttons.ts), the approval id those
 * buttons open at PayPal.
 */
export const startPaypal = operation(
  "paypalPayment",
  async (_buttons?: boolean) => {
    const request = currentRequest();
    if (!request) {
      return payWithPaypal.run({ product: null, href: hrefFor("paypalCompleted") });
    }
    postToHub("payment_paypal");
    // The seats go along: a cancelled approval returns to this checkout as it was.
    const href = hrefFor(
      "paypalCompleted",
      { product: request.product.code, seats: request.seats },
      {
        via: "hash",
      },
    );
    return payWithPaypal.run({ ...request, href }, newIdempotencyKey());
  },
  {
    onSuccess(answer, [buttons]) {
      if (buttons) return;
      // The approval page never runs framed: inside the hub it opens in its own window.
      if (inHubFrame())
        void import("./paypal-sandbox.ts").then((m) => m.openSandboxApproval(answer.approvalUrl));
      else navigate(answer.approvalUrl);
    },
    onFailure(error) {
      if (error.code === "price_changed") {
        void refreshSummary().then(() => patch({ priceChanged: true }));
      }
    },
  },
);
