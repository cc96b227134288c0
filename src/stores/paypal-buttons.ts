// PayPal's JS SDK buttons (PayPal's Subscriptions API on the server, PAYPAL_* configured): the
// buttons' createSubscription asks our server to prepare the subscription (the paypalsubscription
// call: our order key, PayPal's plan, the quantity, the first cycle's price) and creates it at
// PayPal with those; their onApprove sends PayPal's subscription id to the same call, which
// fetches the subscription from PayPal and writes the order only when it is what was prepared.
// The SDK opens PayPal in its own popup, so nothing of ours is ever framed (inside the hub too).
// Only the PayPal buttons chunk imports this module.
import { atom } from "nanostores";
import type { ApiFailure } from "../client/client.ts";
import { failureMessage } from "../client/error-messages.ts";
import { endpoints } from "../contract/endpoints.ts";
import { api, newIdempotencyKey } from "./api.ts";
import { startPaypal } from "./checkout-payment.ts";
import { postToHub } from "./hub.ts";
import { navigate } from "./router.ts";

/** The subset of the JS SDK's createSubscription actions this module uses. */
export type SubscriptionActions = {
  subscription: {
    create(options: {
      plan_id: string;
      custom_id: string;
      quantity: string;
      plan?: {
        billing_cycles: {
          sequence: number;
          total_cycles: number;
          pricing_scheme: { fixed_price: { value: string; currency_code: "USD" } };
        }[];
      };
    }): Promise<string>;
  };
};

/** What this page prepared: the confirm call repeats its product and return address. */
const prepared = atom<{
  orderKey: string;
  productCode: string;
  href: string;
  seats?: number;
} | null>(null);

/** The confirm's refusal, in the API's words, for the form to show (null: none). */
export const $paypalConfirmError = atom<string | null>(null);

/**
 * createSubscription: the server prepares the subscription for the summary on screen, then
 * PayPal creates it. A refusal (price_changed, account_busy, ...) is on startPaypal's state for
 * the form to show; the rejection tells PayPal's buttons not to open.
 */
export async function createPaypalSubscription(actions: SubscriptionActions): Promise<string> {
  $paypalConfirmError.set(null);
  const result = await startPaypal.run(true);
  if (!result.ok) throw new Error(result.error.message);
  const answer = result.value;
  const terms = answer.subscription;
  if (!terms) throw new Error("PayPal is not set up for subscriptions on this server");
  prepared.set({
    orderKey: answer.approvalId,
    productCode: answer.paypal.productCode,
    href: answer.approvalUrl,
  });
  return actions.subscription.create({
    plan_id: terms.planId,
    custom_id: answer.approvalId,
    quantity: String(terms.quantity),
    ...(terms.firstCycleUnitPrice
      ? {
          plan: {
            billing_cycles: [
              {
                sequence: 1,
                total_cycles: 1,
                pricing_scheme: {
                  fixed_price: { value: terms.firstCycleUnitPrice, currency_code: "USD" },
                },
              },
            ],
          },
        }
      : {}),
  });
}

function withOrder(href: string, orderId: string): string {
  const hashAt = href.indexOf("#");
  const base = hashAt < 0 ? href : href.slice(0, hashAt);
  const hash = hashAt < 0 ? "" : href.slice(hashAt);
  const params = new URLSearchParams({ paypal: "approved", orderId });
  return `${base}${base.includes("?") ? "&" : "?"}${params}${hash}`;
}

/**
 * onApprove: the server confirms PayPal's subscription. Approved: paypalCompleted, whose screen
 * tells the hub (paypal-return.ts). Refused: the reason stays on this screen, and the hub hears
 * checkout_completed_failure. Answers where it went, or null (refused, or no subscription of this
 * page was prepared: nothing is sent).
 */
export async function approvePaypalSubscription(subscriptionId: string): Promise<string | null> {
  const p = prepared.get();
  if (!p) return null;
  const answer = await api().call(endpoints.paypalSubscription, {
    body: {
      product: { code: p.productCode },
      newCart: true,
      href: p.href,
      subscriptionId,
      ...(p.seats !== undefined ? { seats: p.seats } : {}),
    },
    idempotencyKey: newIdempotencyKey(),
  });
  if (answer.ok && answer.value.orderId) {
    prepared.set(null);
    const target = withOrder(p.href, answer.value.orderId);
    navigate(target);
    return target;
  }
  const failure: ApiFailure | null = answer.ok ? null : answer.error;
  $paypalConfirmError.set(
    failure ? failureMessage(failure) : "PayPal did not confirm the subscription. Try again.",
  );
  postToHub("checkout_completed_failure", {
    reason: failure?.code ?? "not_confirmed",
    processor: "paypal",
  });
  return null;
}

/** The last PayPal attempt failed at our server (its failure is on startPaypal's state). */
export function serverRefusedPaypal(): boolean {
  return startPaypal.$state.get().status === "failure";
}

/** The person closed PayPal's window before approving: the hub hears it; nothing was charged. */
export function paypalCancelled(): void {
  prepared.set(null);
  postToHub("checkout_completed_failure", { reason: "cancelled", processor: "paypal" });
}
