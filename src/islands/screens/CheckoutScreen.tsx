// The checkout screens (checkout, checkout_summary, checkout_single_export): the plan in the URL
// with its choices (period, essentials, seats), a coupon, the billing address, the order summary
// of /api/4/payment/summary before anything is paid, and the payment. Managed accounts are told
// why they cannot buy here and whom to ask. Everything runs in the stores (stores/checkout.ts).

import { useStore } from "@nanostores/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { managedReason } from "../../domain/checkout/purchase.ts";
import { hrefFor } from "../../domain/checkout/screens.ts";
import { $checkoutPlan } from "../../stores/checkout.ts";
import { openCheckout } from "../../stores/checkout-open.ts";
import { postToHub } from "../../stores/hub.ts";
import { $payment, loadOrderSummary } from "../../stores/payment.ts";
import { $allPlans, loadAllPlans } from "../../stores/plans.ts";
import { $location, $query, navigate } from "../../stores/router.ts";
import { singleExportChoice } from "../../stores/single-export.ts";
import { loadAnalytics, reporter } from "../../stores/telemetry.ts";
import { $user } from "../../stores/user.ts";
import { ManagedNotice } from "../checkout/ManagedNotice.tsx";
import { PlanChoices } from "../checkout/PlanChoices.tsx";
import { useLoadedStore } from "../use-loaded-store.ts";
import { Busy, Frame, Problem } from "./Frame.tsx";

// The payment step (the billing address, card fields, PayPal, and later the providers' SDKs)
// loads after the screen, not with it: what /cart loads before the payment step stays
// within its budget (scripts/cart-bundle.ts), and so do the coupon form and the order summary. The chunks start
// loading with the plan and its summary, and the screen shows them all at once (below).
const addressChunk = () =>
  reporter.watchChunk(import("../checkout/AddressForm.tsx"), { name: "payment" });
const paymentChunk = () =>
  reporter.watchChunk(import("../checkout/PaymentForm.tsx"), { name: "payment" });
const couponChunk = () =>
  reporter.watchChunk(import("../checkout/CouponForm.tsx"), { name: "payment" });
const summaryChunk = () =>
  reporter.watchChunk(import("../checkout/OrderSummary.tsx"), { name: "payment" });
/** The payment step's chunks, started with this screen's (ScreenView's preloadScreen). */
export function preloadPaymentStep(): void {
  for (const chunk of [addressChunk, paymentChunk, couponChunk, summaryChunk])
    void chunk().catch(() => {});
}
const AddressForm = lazy(() => addressChunk().then((m) => ({ default: m.AddressForm })));
const CouponForm = lazy(() => couponChunk().then((m) => ({ default: m.CouponForm })));
const PaymentForm = lazy(() => paymentChunk().then((m) => ({ default: m.PaymentForm })));
const OrderSummary = lazy(() => summaryChunk().then((m) => ({ default: m.OrderSummary })));
// Only when the summary fails: what went wrong and the way on (a quote past the seats sold online),
// in the summary's chunk (no chunk of its own: one name fewer in what this screen preloads).
const SummaryProblem = lazy(() => summaryChunk().then((m) => ({ default: m.SummaryProblem })));

/** The single-export checkout's URL for `code`, the rest of the query (720/1080/2160) kept. */
function exportHref(search: string, code: string): string {
  const params = new URLSearchParams(search);
  params.set("product", code);
  return hrefFor("checkout_single_export", params, { via: "hash" });
}

export function CheckoutScreen({ title, singleExport }: { title: string; singleExport?: boolean }) {
  const query = useStore($query);
  const user = useStore($user);
  // The plan and its summary show the whole checkout (the forms, the payment step): rendered in
  // slices (use-loaded-store.ts), together, as they arrive together.
  const plans = useLoadedStore($allPlans);
  const plansState = useLoadedStore(loadAllPlans.$state);
  const plan = useLoadedStore($checkoutPlan);
  const summaryState = useLoadedStore(loadOrderSummary.$state);
  const { orderSummary } = useLoadedStore($payment);
  const { search } = useStore($location);
  const product = query.productCode;
  const exports = singleExport ? singleExportChoice(product, query.resolution) : null;
  const chosenExport = exports?.chosen ?? null;
  useEffect(() => {
    // The export the URL's resolution allows (?2160=true: 4K), or HD when nothing is asked.
    if (chosenExport && chosenExport !== product) {
      navigate(exportHref($location.get().search, chosenExport), { replace: true });
      return;
    }
    if (!product) return;
    void loadAnalytics().then((m) => m.analytics.trackAddToCart({ product }));
    preloadPaymentStep();
    void openCheckout();
  }, [product, chosenExport]);
  // Nothing moves under the reader's eyes (UX.md; layout shift ≤ 0.01, e2e/cart/layout-shift):
  // the plan, the forms, the summary and the payment step appear together, once the plan and its
  // first summary have come (or failed) and the payment step's code has loaded (one Suspense).
  // Later changes (seats, coupon) update the summary in place.
  const summary = orderSummary && orderSummary.productCode === product ? orderSummary : null;
  const firstLoadDone =
    (plans !== null || plansState.status === "failure") &&
    (summary !== null || summaryState.status === "failure");
  const [shown, setShown] = useState(false);
  if (firstLoadDone && !shown) setShown(true);

  if (!product) {
    return (
      <Frame title={title}>
        <p>Choose a plan first.</p>
        <a className="btn" href={hrefFor("plans")}>
          See the plans
        </a>
      </Frame>
    );
  }
  const managed = singleExport ? null : managedReason(user);
  if (managed) {
    return (
      <Frame title={title}>
        <ManagedNotice reason={managed} />
      </Frame>
    );
  }
  const loading = <Busy label="Loading the plan…" />;
  if (!shown) return <Frame title={title}>{loading}</Frame>;
  return (
    <Frame title={title}>
      <Suspense fallback={loading}>
        <div className="checkout">
          {/* First in reading order (on phones: the plan and the total at the top); a column
              beside the forms on wide screens (cart.css). */}
          <section
            className="checkout-summary"
            aria-label="Your order"
            aria-busy={summaryState.status === "started"}
          >
            {summaryState.status === "started" && !summary && (
              <Busy label="Working out your total…" />
            )}
            {summaryState.status === "failure" && (
              <Suspense fallback={null}>
                <SummaryProblem failure={summaryState.error} />
              </Suspense>
            )}
            {summary && <OrderSummary summary={summary} plan={plan} />}
          </section>
          <div className="checkout-forms stack">
            {plansState.status === "failure" && (
              <Problem failure={plansState.error} retry={() => void openCheckout()} />
            )}
            {plan && plans && <PlanChoices plan={plan} plans={plans} />}
            {singleExport && (
              <fieldset>
                <legend>Export quality</legend>
                {exports?.offered.map(({ code, label }) => (
                  <label key={code}>
                    <input
                      type="radio"
                      name="export"
                      checked={product === code}
                      onChange={() => navigate(exportHref(search, code), { replace: true })}
                    />
                    {label}
                  </label>
                ))}
              </fieldset>
            )}
            {!singleExport && <CouponForm />}
            <AddressForm />
            <PaymentForm
              summary={summaryState.status === "failure" ? null : summary}
              onConfirm={
                singleExport
                  ? () => postToHub("clicked_confirm_single_export", { productCode: product })
                  : undefined
              }
            />
          </div>
        </div>
      </Suspense>
    </Frame>
  );
}
