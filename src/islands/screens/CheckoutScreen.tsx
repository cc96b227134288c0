// The checkout screens (checkout, checkout_summary, checkout_single_export): the order summary of
// /api/4/payment/summary for the product in the URL, line by line, before anything is paid. The
// total is announced when it changes; the pay button names the amount. The purchase flows add
// seats, coupons, the address and the payment providers.

import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { hrefFor } from "../../domain/checkout/routes.ts";
import { formatUsd } from "../../domain/pricing/money.ts";
import { $payment, loadOrderSummary, pay } from "../../stores/payment.ts";
import { $query, navigate } from "../../stores/router.ts";
import { analytics } from "../../stores/telemetry.ts";
import { Busy, Frame, Problem } from "./Frame.tsx";

export function CheckoutScreen({ title, singleExport }: { title: string; singleExport?: boolean }) {
  const query = useStore($query);
  const summaryState = useStore(loadOrderSummary.$state);
  const payState = useStore(pay.$state);
  const { orderSummary } = useStore($payment);
  const product = query.productCode ?? (singleExport ? "single_export_hd" : null);
  useEffect(() => {
    if (!product) return;
    void loadOrderSummary.run({ targetProduct: product });
    analytics.trackAddToCart({ product });
  }, [product]);
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
  const onPay = async () => {
    if (!orderSummary) return;
    const result = await pay.run({ product: { code: product }, expectedTotal: orderSummary.total });
    if (result.ok) navigate(hrefFor("payment-completed", undefined, { via: "hash" }));
  };
  return (
    <Frame title={title}>
      <div className="order-summary" aria-live="polite">
        {summaryState.status === "started" && <Busy label="Working out your total…" />}
        {summaryState.status === "failure" && (
          <Problem
            failure={summaryState.error}
            retry={() => loadOrderSummary.run({ targetProduct: product })}
          />
        )}
        {orderSummary && summaryState.status === "success" && (
          <>
            <table>
              <caption className="vh">Order summary</caption>
              <tbody>
                {orderSummary.lines.map((line) => (
                  <tr key={`${line.kind}-${line.label}`}>
                    <th scope="row">{line.label}</th>
                    <td>{formatUsd(line.amount)}</td>
                  </tr>
                ))}
                {orderSummary.salesTax > 0 && (
                  <tr>
                    <th scope="row">Sales tax</th>
                    <td>{formatUsd(orderSummary.salesTax)}</td>
                  </tr>
                )}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Total due today</th>
                  <td data-testid="total">{formatUsd(orderSummary.total)}</td>
                </tr>
              </tfoot>
            </table>
            <button
              type="button"
              className="btn"
              onClick={onPay}
              disabled={payState.status === "started"}
            >
              {payState.status === "started" ? "Paying…" : `Pay ${formatUsd(orderSummary.total)}`}
            </button>
            {payState.status === "failure" && <Problem failure={payState.error} />}
          </>
        )}
      </div>
    </Frame>
  );
}
