// After a purchase or a new account: payment-completed and paypalCompleted show the invoice
// summary of spec 3.6; the account-completed screens say what the person has now and where to go.

import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { formatUsd } from "../../domain/pricing/money.ts";
import { $payment, loadInvoice } from "../../stores/payment.ts";
import { Busy, Frame, Problem } from "./Frame.tsx";

export function PaymentCompletedScreen({
  title,
  processor,
}: {
  title: string;
  processor: "cc" | "paypal";
}) {
  const state = useStore(loadInvoice.$state);
  const { invoice } = useStore($payment);
  useEffect(() => {
    void loadInvoice.run(processor);
  }, [processor]);
  const summary = state.status === "success" ? invoice : null;
  return (
    <Frame title={title}>
      {state.status === "started" && <Busy label="Loading your invoice…" />}
      {state.status === "failure" && (
        <Problem failure={state.error} retry={() => loadInvoice.run(processor)} />
      )}
      {summary && (
        <dl className="invoice">
          <dt>Order</dt>
          <dd>{summary.orderId}</dd>
          <dt>Paid</dt>
          <dd>{formatUsd(summary.price)}</dd>
          <dt>Paid with</dt>
          <dd>{summary.paymentProcessor === "paypal" ? "PayPal" : "Card"}</dd>
        </dl>
      )}
      <a className="btn" href="/app">
        Go to the editor
      </a>
    </Frame>
  );
}

export function AccountReadyScreen({ title, text }: { title: string; text: string }) {
  return (
    <Frame title={title}>
      <p>{text}</p>
      <a className="btn" href="/app">
        Start editing
      </a>
    </Frame>
  );
}
