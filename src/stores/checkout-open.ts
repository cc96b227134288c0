// Opening the checkout screen: its plan, its summary, and a purchase attempt that a reload
// interrupted. It stands apart from checkout.ts so that the choices never import the payment's
// module (checkout-payment.ts builds on them); that module is loaded here only when an attempt is
// stored, so the checkout screen's first load does not carry it (scripts/cart-bundle.ts).
import { ATTEMPT_KEY, patch, refreshSummary, storage } from "./checkout.ts";
import { $allPlans, loadAllPlans } from "./plans.ts";

/** Opens the checkout for the product in the URL: its plan, then its summary. */
export async function openCheckout(): Promise<void> {
  patch({ priceChanged: false, failure: null });
  if (!$allPlans.get()) await loadAllPlans.run();
  await refreshSummary();
  if (storage()?.getItem(ATTEMPT_KEY)) {
    const payment = await import("./checkout-payment.ts");
    await payment.resumeAttempt();
  }
}
