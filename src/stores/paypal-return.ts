// The return from PayPal's approval (sandbox: /dev/paypal/approve) to paypalCompleted with
// paypal=approved|cancelled and the order id: the hub hears once that the checkout settled, and
// product info is loaded again after an approved payment. Apart from the checkout store so the
// completed screens do not load the checkout's code.
import { atom, computed } from "nanostores";
import { postToHub } from "./hub.ts";
import { forgetPlans } from "./plans.ts";
import { loadProducts } from "./products.ts";
import { $location } from "./router.ts";

/**
 * What PayPal's return said: approved (on the paypalCompleted screen), or cancelled or
 * price_changed (back on the checkout, which says that nothing was charged).
 */
export const $paypalReturn = computed($location, (l) => {
  const value = new URLSearchParams(l.search).get("paypal");
  return value === "approved" || value === "cancelled" || value === "price_changed" ? value : null;
});

const reported = atom<string | null>(null);

/** Tells the hub once that a PayPal checkout settled. */
export function reportPaypalReturn(): void {
  const state = $paypalReturn.get();
  const orderId = new URLSearchParams($location.get().search).get("orderId") ?? "";
  const id = `${state}:${orderId}`;
  if (!state || reported.get() === id) return;
  reported.set(id);
  if (state === "approved") {
    forgetPlans();
    void loadProducts.run();
    postToHub("checkout_completed_success", { orderId, processor: "paypal" });
  } else postToHub("checkout_completed_failure", { reason: state, processor: "paypal" });
}
