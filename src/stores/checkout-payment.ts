// The checkout's payment: its attempt (one Idempotency-Key for one request, kept in sessionStorage
// until the server settles it), paying by card and starting PayPal. Loaded with the payment step
// (PaymentForm) or when a reload finds an attempt to finish, never with the checkout screen itself:
// the JavaScript before the payment step has a budget (scripts/cart-bundle.ts).
import type { ApiFailure } from "../client/client.ts";
import { hrefFor } from "../domain/checkout/screens.ts";
import { newIdempotencyKey } from "./api.ts";
import type { Tokenizer } from "./card-token.ts";
import { ATTEMPT_KEY, patch, refreshSummary, storage, summaryInput } from "./checkout.ts";
import { inHubFrame, postToHub } from "./hub.ts";
import { operation } from "./operation.ts";
import { $payment, type PurchaseInput, pay, payWithPaypal, savePaymentToken } from "./payment.ts";
import { forgetPlans } from "./plans.ts";
import { navigate } from "./router.ts";

// ---- The attempt: one key per request, kept until the server settles it.

/** The purchase (the contract's body, payment.ts) as the checkout sends it: with the total it showed. */
type AttemptRequest = PurchaseInput & { product: { code: string }; expectedTotal: number };
type Attempt = { key: string; request: AttemptRequest };

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

function attemptFor(request: AttemptRequest): Attempt {
  const stored = readAttempt();
  if (stored && JSON.stringify(stored.request) === JSON.stringify(request)) return stored;
  const attempt = { key: newIdempotencyKey(), request };
  writeAttempt(attempt);
  return attempt;
}

function currentRequest(): AttemptRequest | null {
  const summary = $payment.get().orderSummary;
  const input = summaryInput();
  if (!summary || !input || summary.productCode !== input.targetProduct) return null;
  const request: AttemptRequest = {
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
export async function resumeAttempt(): Promise<void> {
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
